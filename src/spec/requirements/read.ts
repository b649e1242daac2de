import { requirements } from '../requirement.ts';

/**
 * Invariants of the Case read representation. Besides their own checks (suites/read-invariants),
 * the kit's invariant watcher judges the judged ones on every case body any suite receives.
 */
/** Where the case invariants are judged: the case representations the interface shows, and nothing else. */
const WHERE =
  'Judged on the answers to GET and PATCH of one case (the Case read representation, § Endpoints › PATCH), and on ' +
  'webhooks by WEBHOOK-BODY-CASE (§ Events 2); never on what a bulk answer shows of a case ("the response body: ' +
  "not shown\"), nor on the answers to creation or start (the provisioning conventions', not the interface's).";

export const READ_REQUIREMENTS = requirements([
  {
    id: 'READ-CASE-SCHEMA',
    level: 'MUST',
    area: 'read',
    statement:
      'Every case the server returns carries the always-present fields of the case, its customer and each check, ' +
      'with the types the interface gives them.',
    source:
      'interface § Resources › Case, Customer, Check ("Always present in a case response", "Always present in a ' +
      'check")',
    decision:
      'Enum values, risk score ranges and the type of external_id are judged by their own requirements, so one ' +
      'defect fails one requirement. ' +
      WHERE,
  },
  {
    id: 'READ-ENUMS',
    level: 'MUST',
    area: 'read',
    statement:
      'Case outcome, check outcome, check status, check_type and customer_type hold only the values the interface ' +
      'lists (or null / empty string where it allows them).',
    source: 'interface § Resources › Case, Customer, Check; § States and transitions',
    decision:
      'Every value listed is legal wherever the field is shown or written: customer_type INDIVIDUAL, COMPANY, "" ' +
      'and null; check_type each of its values, "" and null. No check sends a listed value as a failing one, and ' +
      `letter-case variants (individual) are never sent as failing items either (a server may fold them). ${WHERE}`,
  },
  {
    id: 'READ-RISK-SCORE-RANGE',
    level: 'MUST',
    area: 'read',
    statement: 'Every risk_score, of a case and of each of its checks, is null or a number from 0.0 to 1.0.',
    source: 'interface § Limits (risk score range: checks, case, 0.0 to 1.0); § What the service does 3',
  },
  {
    id: 'READ-CHECK-DECIDED-SCORE',
    level: 'MUST',
    area: 'read',
    statement:
      'A decided check (status DECIDED) shows its risk score as a number: a score of 0.0 reads as 0, never as null.',
    source:
      'interface § What the service does 3 ("Each check returns an outcome (ACCEPTED, REJECTED or PENDING), ' +
      'reasoning, a risk score between 0.0 and 1.0 and an audit note"); § Resources › Check (risk_score "number ' +
      '(double) or null")',
    decision:
      'null is the risk score of a check not decided yet: a check whose status is DECIDED returns its score. ' +
      'Judged on checks showing DECIDED only (SKIPPED, ERROR and SUBMITTED are not decisions the interface ' +
      "describes); a risk_score left out is READ-CASE-SCHEMA's, one out of range READ-RISK-SCORE-RANGE's. The " +
      'run reads checks of every check_type decided (suites/read-states), where a type a server scores 0 shows a ' +
      `falsy zero turned into null (\`score || null\`). ${WHERE}`,
  },
  {
    id: 'READ-CASE-RISK-MAX',
    level: 'MUST',
    area: 'read',
    statement: "When every check of a case has a risk score, the case's risk_score equals the maximum of them.",
    source:
      'interface § States and transitions ("The case risk_score equals the maximum of its checks\' risk scores"); § ' +
      'Resources › Case',
    decision:
      'Judged on every case read, over the checks the case shows at that moment; defined only when each check has a ' +
      'score (otherwise READ-CASE-RISK-UNSCORED records it); null is tolerated while is_complete is false, as a ' +
      'server may aggregate at completion.',
  },
  {
    id: 'READ-CASE-RISK-UNSCORED',
    level: 'OBSERVE',
    area: 'read',
    statement:
      "What a case's risk_score shows while some or none of its checks have a score (before processing, during it, " +
      'with no checks).',
    source:
      "interface § States and transitions (maximum of its checks' risk scores; the maximum of no score is not defined)",
  },
  {
    id: 'READ-STATES',
    level: 'OBSERVE',
    area: 'read',
    statement:
      'The states the run read a case in (checks of every check_type, "" and null among them; no checks; every ' +
      'check deleted by a bulk check delete; a customer of every customer_type), what each case showed when last ' +
      'read, and what the target would not make of them.',
    source:
      'interface § Resources › Case, Customer, Check (check_type and customer_type values); § Endpoints › POST ' +
      '/api/checks/bulk-delete/; docs/architecture.md (Provisioning conventions)',
    decision:
      "Creating and starting cases are the provisioning conventions', not the interface's: a case without checks " +
      'or with checks without a type that the target will not make, a start it refuses for a case with nothing ' +
      'to process, and a last check it keeps are recorded here, never judged. The cases are judged by ' +
      'READ-CASE-SCHEMA and READ-CHECK-DECIDED-SCORE (GET and the answer to a PATCH) and by WEBHOOK-DELIVERED ' +
      'and WEBHOOK-BODY-CASE (the webhook).',
  },
  {
    id: 'READ-CHECK-OUTCOME-UNDECIDED',
    level: 'MUST',
    area: 'read',
    statement:
      'A check not yet decided shows outcome null: each check of a case whose processing was never started reads ' +
      'with outcome null in a read of the case.',
    source:
      'interface § States and transitions ("Check outcome values: ACCEPTED, REJECTED, PENDING (null until ' +
      'decided)"); § Resources › Check (outcome: "the agent\'s decision")',
    decision:
      'PENDING is a decision the agent can give, not the absence of one, so an undecided check showing PENDING ' +
      'fails. Undecided is known only where processing was never started (the provisioning conventions start it ' +
      "with a request of their own; the harness never sends it for this case): judged on such a case's checks " +
      'whose status is PENDING, the first status; a check showing another status there is not judged (the check ' +
      'is skipped when none shows PENDING). The read is judged, not the answer to creation, which is the ' +
      "provisioning conventions', not the case read API's.",
  },
  {
    id: 'READ-CHECK-INPUT-DETAILS',
    level: 'MUST',
    area: 'read',
    statement:
      'The case read shows each check with the input_details it was created with: every key given, with its value ' +
      '(compared as JSON: key order aside).',
    source:
      'interface § Resources › Check (input_details: "JSON input for the check, scoped to its own case … Exposed ' +
      'through the case read API and webhooks")',
    decision:
      'Judged on a read of the case before processing starts (the answer to creation belongs to the provisioning ' +
      'conventions, not to the case read API), with plain ASCII values (so a server normalising or trimming text ' +
      'shows them unchanged), each check matched by its check_type (the order of checks is not shown). Keys the ' +
      'server adds (enrichment context) are allowed; a key left out, a changed value, or input_details absent or ' +
      'null fails.',
  },
]);
