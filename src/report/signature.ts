/**
 * Signed evidence: SHA256SUMS.sig, a detached Ed25519 signature of a run folder's SHA256SUMS with
 * the fingerprint of the key that made it. SHA256SUMS alone proves nothing to a third party
 * (whoever edits the folder can write it again); a signature made with the auditor's private key
 * (`run --sign-key`) does: `verify --public-key` catches a regenerated SHA256SUMS, an altered
 * signature and a signature made with another key. Keys are Ed25519, PEM (PKCS#8 private, SPKI
 * public), made by `screenconf keygen` or `openssl genpkey -algorithm ed25519`; node:crypto only.
 *
 *   screenconf signature 1
 *   algorithm: ed25519
 *   signed: SHA256SUMS
 *   key: SHA256:<base64 of the SHA-256 of the public key's DER>
 *   signature: <base64>
 */
import {
  createPrivateKey,
  createPublicKey,
  createHash,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../errors.ts';
import { MANIFEST, SIGNATURE } from './manifest.ts';

export { SIGNATURE };
const HEADER = 'screenconf signature 1';

/** `SHA256:…`: how a public key is named (as ssh-keygen prints it). */
export function fingerprint(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  const der = pub.export({ type: 'spki', format: 'der' });
  return `SHA256:${createHash('sha256').update(der).digest('base64').replace(/=+$/, '')}`;
}

function readKeyFile(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new HarnessError('SC_KEY_FILE', `cannot read the ${what} ${file}: ${(err as { code?: string }).code ?? err}`);
  }
}

/** The Ed25519 private key of a PEM file (--sign-key); SC_KEY_FILE when it is not one. */
export function loadPrivateKey(file: string): KeyObject {
  const pem = readKeyFile(file, 'signing key (--sign-key)');
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new HarnessError('SC_KEY_FILE', `${file} is not a private key in PEM (make one with "screenconf keygen")`);
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new HarnessError('SC_KEY_FILE', `${file} is a ${key.asymmetricKeyType} key; the signing key is Ed25519`);
  return key;
}

/** The Ed25519 public key of a PEM file (--public-key); a private key's file is refused (it must not travel). */
export function loadPublicKey(file: string): KeyObject {
  const pem = readKeyFile(file, 'public key (--public-key)');
  if (/PRIVATE KEY-----/.test(pem))
    throw new HarnessError('SC_KEY_FILE', `${file} holds a private key: give verify the public key (.pub)`);
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch {
    throw new HarnessError('SC_KEY_FILE', `${file} is not a public key in PEM (screenconf keygen writes one)`);
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new HarnessError('SC_KEY_FILE', `${file} is a ${key.asymmetricKeyType} key; signatures are Ed25519`);
  return key;
}

/** A new key pair, as PEM, and its fingerprint. */
export function generateKeys(): { privatePem: string; publicPem: string; fingerprint: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    fingerprint: fingerprint(publicKey),
  };
}

/** Signs the folder's SHA256SUMS (written just before) into SHA256SUMS.sig; returns the key's fingerprint. */
export function signFolder(dir: string, key: KeyObject): string {
  const signature = sign(null, readFileSync(join(dir, MANIFEST)), key).toString('base64');
  const fp = fingerprint(key);
  const text = [HEADER, 'algorithm: ed25519', `signed: ${MANIFEST}`, `key: ${fp}`, `signature: ${signature}`];
  writeFileSync(join(dir, SIGNATURE), `${text.join('\n')}\n`);
  return fp;
}

/** What checking a folder's signature found. */
export type SignatureCheck =
  | { status: 'valid'; key: string }
  | { status: 'absent' }
  | { status: 'unchecked'; key: string | undefined }
  | { status: 'invalid'; problem: string };

function parseSignature(text: string): { key: string; signature: Buffer } | undefined {
  const lines = text.split('\n').filter((l) => l !== '');
  if (lines[0] !== HEADER) return undefined;
  const fields = new Map(
    lines.slice(1).map((l) => {
      const at = l.indexOf(': ');
      return [l.slice(0, at), l.slice(at + 2)] as const;
    }),
  );
  const key = fields.get('key');
  const sig = fields.get('signature');
  if (fields.get('algorithm') !== 'ed25519' || fields.get('signed') !== MANIFEST || !key || !sig) return undefined;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(sig)) return undefined;
  return { key, signature: Buffer.from(sig, 'base64') };
}

/** Checks SHA256SUMS.sig against SHA256SUMS with the public key (or only reads it, without one). */
export function checkSignature(dir: string, publicKey: KeyObject | undefined): SignatureCheck {
  const file = join(dir, SIGNATURE);
  if (!existsSync(file)) return { status: 'absent' };
  const parsed = parseSignature(readFileSync(file, 'utf8'));
  if (!parsed) return { status: 'invalid', problem: `${SIGNATURE} is not a screenconf signature (it was altered)` };
  if (!publicKey) return { status: 'unchecked', key: parsed.key };
  const expected = fingerprint(publicKey);
  if (parsed.key !== expected)
    return {
      status: 'invalid',
      problem: `${SIGNATURE} names the key ${parsed.key}, not the one given (${expected}): signed by someone else`,
    };
  let manifest: Buffer;
  try {
    manifest = readFileSync(join(dir, MANIFEST));
  } catch {
    return { status: 'invalid', problem: `${MANIFEST} is missing, so its signature vouches for nothing` };
  }
  return verify(null, manifest, publicKey, parsed.signature)
    ? { status: 'valid', key: expected }
    : {
        status: 'invalid',
        problem:
          `${MANIFEST} is not what was signed: it (or ${SIGNATURE}) changed after signing, so no file of the ` +
          'folder can be trusted by its digest',
      };
}
