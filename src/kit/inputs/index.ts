export { judgeOracle } from './judge.ts';
export { runPatchMatrix, patchCells } from './patch.ts';
export type { SentCell, CellVerdict } from './cell.ts';
export { runBulkMatrix } from './bulk.ts';
export type { BulkCell } from './bulk-cells.ts';
export { runPathMatrix } from './path.ts';
export { runTokenMatrix } from './token.ts';
export { spellingsTaken } from './spellings.ts';
