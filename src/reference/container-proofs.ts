/**
 * What the switches of the containers (issue 33 §2, src/spec/inputs/containers.ts) prove, spread into FAULT_PROOFS
 * and VARIANT_READINGS (proofs.ts): each fault passes the bulk suites' own limit checks (JSON, a record per item) and
 * only the container cells catch it, the other oracles of the container cells still passing.
 */
import type { RequirementId } from '../spec/index.ts';
import { CONTAINER_OWNERS, CONTAINER_SUITE } from '../spec/inputs/containers.ts';
import type { FaultName } from './faults.ts';
import type { FaultProof } from './proof.ts';
import type { VariantName } from './variants.ts';

const REJECT_101: RequirementId[] = ['BULK-CASES-REJECT-101', 'BULK-CUSTOMERS-REJECT-101', 'BULK-CHECKS-REJECT-101'];

/** A fault of the bulk containers: it fails the requirements named, the containers' other oracles pass. */
function containerFault(...fails: RequirementId[]): FaultProof {
  const owners = Object.values(CONTAINER_OWNERS).flatMap((o) => Object.values(o)) as RequirementId[];
  return { suites: [CONTAINER_SUITE], fails, passes: [...new Set(owners)].filter((id) => !fails.includes(id)) };
}

export const CONTAINER_FAULT_PROOFS = {
  'bulk.flat-no-limit': containerFault(...REJECT_101),
  'bulk.count-after-dedupe': containerFault(...REJECT_101),
  'bulk.items-flatten': containerFault('BULK-CASES-OWN-RECORD', 'BULK-CUSTOMERS-OWN-RECORD'),
  'bulk.elements-no-transaction': containerFault('BULK-CASES-PARTIAL', 'BULK-CUSTOMERS-PARTIAL', 'BULK-CHECKS-PARTIAL'),
  // A list cut short in a flat body: 100 items no longer parse, 20 of 100 ids are deleted and 20 of 101 too.
  'content.form-small-limits': containerFault(
    'BULK-CASES-ACCEPT-100',
    'BULK-CUSTOMERS-ACCEPT-100',
    'BULK-CHECKS-ACCEPT-100',
    'BULK-CHECKS-REJECT-101',
  ),
} as const satisfies Partial<Record<FaultName, FaultProof>>;

export const CONTAINER_VARIANT_READINGS = {
  // An entry of another kind fails its item, where the default refuses the whole request: both conform.
  'bulk.elements-per-item': [
    'BULK-CASES-PARTIAL',
    'BULK-CUSTOMERS-PARTIAL',
    'BULK-CHECKS-PARTIAL',
    'BULK-CASES-MALFORMED',
    'BULK-CUSTOMERS-MALFORMED',
    'BULK-CHECKS-MALFORMED',
    'BULK-CHECKS-NON-INTEGER-ID',
  ],
  'bulk.empty-refused': [
    'BULK-CASES-ANSWERED',
    'BULK-CUSTOMERS-ANSWERED',
    'BULK-CASES-MALFORMED',
    'BULK-CUSTOMERS-MALFORMED',
    'BULK-CHECKS-MALFORMED',
  ],
  // File parts read as text: the flat 100-item cells of multipart file parts are judged, and must pass.
  'content.file-parts-as-text': [
    'BULK-CASES-ACCEPT-100',
    'BULK-CUSTOMERS-ACCEPT-100',
    'BULK-CHECKS-ACCEPT-100',
    'BULK-CASES-STORED-AS-SENT',
    'CASE-PATCH-STORED-AS-SENT',
  ],
} as const satisfies Partial<Record<VariantName, readonly RequirementId[]>>;
