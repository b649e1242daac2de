/**
 * junit.xml as CI servers read it: parsed with @xmldom/xmldom (no regexes), validated with
 * libxml2 (xmllint-wasm) against the published Jenkins JUnit schema vendored in
 * test/fixtures/junit/ (see its README for the two extensions screenconf adds, checked here too).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOMParser, type Element, XMLSerializer } from '@xmldom/xmldom';
import { validateXML } from 'xmllint-wasm';
import { ROOT } from './cli.ts';

const XSD = readFileSync(join(ROOT, 'test/fixtures/junit/jenkins-junit.xsd'), 'utf8');

export function parseXml(xml: string): Element {
  const errors: string[] = [];
  const doc = new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') errors.push(message);
    },
  }).parseFromString(xml, 'text/xml');
  if (errors.length) throw new Error(`junit.xml is not well-formed XML: ${errors.join('; ')}`);
  return doc.documentElement!;
}

export function children(e: Element, name: string): Element[] {
  return Array.from(e.childNodes).filter((n): n is Element => n.nodeType === 1 && (n as Element).tagName === name);
}

export function child(e: Element, name: string): Element | undefined {
  return children(e, name)[0];
}

/** Problems with the two extensions: anything in them other than what the README describes. */
function extensionProblems(root: Element): string[] {
  const problems: string[] = [];
  for (const suite of children(root, 'testsuite')) {
    for (const tc of children(suite, 'testcase')) {
      const props = children(tc, 'properties');
      if (props.length > 1) problems.push(`${tc.getAttribute('name')}: more than one <properties>`);
      for (const p of props) {
        const first = Array.from(tc.childNodes).find((n) => n.nodeType === 1);
        if (first !== p) problems.push(`${tc.getAttribute('name')}: <properties> is not first`);
        for (const n of Array.from(p.childNodes)) {
          if (n.nodeType === 3 && n.nodeValue?.trim() === '') continue;
          const e = n as Element;
          const attrs = e.attributes ? Array.from(e.attributes).map((a) => a.name) : [];
          if (e.tagName !== 'property' || attrs.sort().join() !== 'name,value' || e.childNodes.length)
            problems.push(`${tc.getAttribute('name')}: <properties> holds something other than <property name value/>`);
        }
      }
      for (const s of children(tc, 'skipped')) {
        const attrs = Array.from(s.attributes).map((a) => a.name);
        if (attrs.some((a) => a !== 'message')) problems.push(`<skipped> has attributes ${attrs.join(', ')}`);
      }
    }
  }
  return problems;
}

/**
 * Validates junit.xml: the extensions have their documented shape, and the document without them
 * is valid against the published schema. Returns the problems (none: valid).
 */
export async function junitProblems(xml: string): Promise<string[]> {
  const root = parseXml(xml);
  const problems = extensionProblems(root);
  for (const suite of children(root, 'testsuite')) {
    for (const tc of children(suite, 'testcase')) {
      for (const p of children(tc, 'properties')) tc.removeChild(p);
      for (const s of children(tc, 'skipped')) s.removeAttribute('message');
    }
  }
  const stripped = new XMLSerializer().serializeToString(root.ownerDocument!);
  const result = await validateXML({
    xml: [{ fileName: 'junit.xml', contents: stripped }],
    schema: [{ fileName: 'jenkins-junit.xsd', contents: XSD }],
  });
  return [...problems, ...result.errors.map((e) => e.message)];
}
