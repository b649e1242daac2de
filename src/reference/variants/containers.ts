/**
 * Variants of the bulk endpoints' containers (issue 33 §2, src/spec/inputs/containers.ts): what the interface
 * leaves open about the array that carries a batch. An entry of another kind may fail its item ("failures are
 * reported per item") where the default refuses the whole body ("an array of objects"); an empty batch may be
 * refused; a multipart part sent as a file may be read as its text.
 */
import { isId, LIMITS } from '../../spec/index.ts';
import { isObject, rawEntries } from '../handlers/bulk.ts';
import { HttpError } from '../http.ts';
import { variant } from '../switches.ts';
import type { ItemResult } from '../points.ts';

export const CONTAINER_VARIANTS = [
  variant(
    'bulk.elements-per-item',
    'an entry of another kind than its list holds (an item that is no object, an id that is no integer) fails ' +
      'that item (400 invalid_entry) and the other entries go on, on each bulk endpoint (the default refuses the ' +
      'whole request)',
    (base) => ({
      runBatch(spec, body, run) {
        const raw = rawEntries(spec, body);
        const wrong = (e: unknown) => (spec.key === 'items' ? !isObject(e) : !isId(e));
        if (!raw || raw.length > LIMITS.bulkMaxItems || !raw.some(wrong)) return base.runBatch(spec, body, run);
        const kept = raw.flatMap((e, i) => (wrong(e) ? [] : [i]));
        const results = kept.length
          ? base.runBatch(spec, { ...(body as object), [spec.key]: kept.map((i) => raw[i]) }, run)
          : [];
        return raw.map((e, index): ItemResult => {
          const j = kept.indexOf(index);
          if (j >= 0) return { ...results[j]!, index };
          const error = new HttpError(
            400,
            'invalid_entry',
            `entry ${index} is not ${spec.key === 'items' ? 'an object' : 'an integer'}`,
          );
          return { index, key: { id: spec.key === 'ids' ? e : null }, status: 'failed', error };
        });
      },
    }),
  ),
  variant(
    'bulk.empty-refused',
    'a bulk request whose items or ids list is empty is refused (400 "must hold at least one entry"), on each bulk ' +
      'endpoint (the default answers 200 with no result)',
    (base) => ({
      runBatch(spec, body, run) {
        if (rawEntries(spec, body)?.length === 0)
          throw new HttpError(400, 'validation_error', 'request body is invalid', {
            fields: { [spec.key]: ['must hold at least one entry'] },
          });
        return base.runBatch(spec, body, run);
      },
    }),
  ),
  variant(
    'content.file-parts-as-text',
    'a multipart part sent as a file (with a filename) is read as its text, as a part without one is (the default ' +
      'refuses it with 400): a PATCH or a bulk request of file parts is read as the same request of text parts',
    () => ({ fileParts: 'text' }),
  ),
];
