import { requirements } from '../requirement.ts';

const EVENTS_1 =
  'interface § Events 1 ("When case processing completes, a webhook is sent to the case\'s webhook_url (settable at ' +
  'update, max 511 characters, nullable)")';
const NOT_SHOWN = 'interface § Events ("Webhook request shape, signing and retries: not shown")';

/**
 * The completion webhook (interface § Events; § Resources › Case webhook_url; § What the service
 * does 4). Its request shape, signing and retries are not shown: what the interface states is
 * judged, the rest recorded. Starting processing follows the provisioning conventions.
 */
export const WEBHOOK_REQUIREMENTS = requirements([
  {
    id: 'WEBHOOK-DELIVERED',
    level: 'MUST',
    area: 'webhook',
    statement:
      'A case whose webhook_url was set by PATCH, once processing is started and completes, gets a request at that ' +
      'URL within the webhook deadline.',
    source: `${EVENTS_1}; § Resources › Case (webhook_url: "called on case completion")`,
    decision:
      'Processing time is not shown: the deadline is --webhook-timeout-ms (default 15 s). The method is not shown ' +
      'either, so any request at the URL is the delivery; its method and content type are recorded. Judged on the ' +
      'baseline case, and on a case in each state the run reads (kit/states.ts: checks of every check_type, no ' +
      'checks, every check deleted), each owed its webhook once it reads complete: a check of a type the ' +
      'interface says wants documents (KYB, KYC EDD, transaction monitoring) may hold its case, so one still not ' +
      'complete at the deadline is recorded (WEBHOOK-LATENCY), as is a start the target refuses for a case with ' +
      'nothing to process.',
  },
  {
    id: 'WEBHOOK-BODY-CASE',
    level: 'MUST',
    area: 'webhook',
    statement:
      "The delivery's body is JSON carrying the case as in its read representation: that case's id, the " +
      'always-present fields of the case, its customer and its checks with their types and listed enum values, ' +
      "risk scores within 0.0 to 1.0 (a decided check's a number), and the case's risk_score the maximum of its " +
      "checks'; and every field of the interface's Case, Customer and Check tables that a read of the case shows " +
      '(null where it is null, "" where it is "").',
    source:
      'interface § Events 2 ("case data are exposed in webhooks as in the case read representation"); § Resources › ' +
      'Case; § Limits (risk score range)',
    decision:
      'The request shape is not shown: the case may be the whole body or an object inside it (an envelope), found ' +
      'by its id (the object most like a case, where a summary beside it carries the same id); the body is JSON as ' +
      'the read representation is (a form field holding JSON is accepted). Where the case sits is recorded ' +
      '(WEBHOOK-ENVELOPE). The delivered case is judged by the invariants the watcher applies to every case read ' +
      '(kit/invariants.ts caseInvariants, one mechanism), and its fields against the read made when it arrives: a ' +
      "field the interface defines that the read shows (a customer's external_id, metadata, a null note) must be " +
      'in the webhook too, "as in the case read representation"; fields the interface does not define are not ' +
      'compared. Judged on the baseline case and on a case in each state the run reads (kit/states.ts: checks of ' +
      'every check_type, no checks, every check deleted, every customer_type).',
  },
  {
    id: 'WEBHOOK-BODY-COMPLETE',
    level: 'MUST',
    area: 'webhook',
    statement:
      'The delivered case shows is_complete true: the webhook reports the completed case, not one still being ' +
      'processed.',
    source: `${EVENTS_1}; § Resources › Case (is_complete; webhook_url "called on case completion")`,
    decision:
      "Judged when the body carries is_complete as a boolean; a missing or mistyped field is WEBHOOK-BODY-CASE's.",
  },
  {
    id: 'WEBHOOK-BODY-RESULTS',
    level: 'MUST',
    area: 'webhook',
    statement:
      'A delivered case showing is_complete true carries the results the case reads with once processing has ' +
      'completed: the same checks by id, each with the same outcome and risk_score, and the same case outcome and ' +
      'risk_score.',
    source:
      'interface § What the service does 4 ("Results are delivered to the case\'s webhook URL when processing ' +
      'completes"); § Events 2',
    decision:
      'Check status is not compared: transitions are not shown and a check may move on after the webhook. Judged ' +
      'only on a body that passes WEBHOOK-BODY-CASE and shows is_complete true, so one defect fails one ' +
      'requirement. The case is read until it shows the delivered results or the webhook deadline passes: when ' +
      "they show is WEBHOOK-AFTER-COMMIT's, what they are is this one's.",
  },
  {
    id: 'WEBHOOK-AFTER-COMMIT',
    level: 'MUST',
    area: 'webhook',
    statement:
      'A read of the case made when its completion webhook arrives, before the receiver answers it, already shows ' +
      'the completion the webhook announces: is_complete true, and the same case outcome and risk_score and the ' +
      'same checks with the same outcome and risk_score.',
    source:
      `${EVENTS_1}; § What the service does 4 ("Results are delivered to the case's webhook URL when processing ` +
      'completes")',
    decision:
      'MUST: the interface sends the webhook "when case processing completes", so a webhook whose completion a ' +
      'read does not yet show was sent before processing completed as far as any client can tell (a receiver ' +
      'that reads the case on the webhook, as receivers do, gets the case unfinished). The receiver holds its ' +
      'answer while the case is read (at most the webhook deadline): a server that saves the completion only once ' +
      'the delivery is answered shows it to no read meanwhile, and a read that gets no answer until the receiver ' +
      'answers shows nothing either. Judged only where the delivered case passes WEBHOOK-BODY-CASE, shows ' +
      'is_complete true and its results are what the case later reads with (WEBHOOK-BODY-RESULTS), so one defect ' +
      'fails one requirement.',
  },
  {
    id: 'WEBHOOK-INPUT-DETAILS',
    level: 'MUST',
    area: 'webhook',
    statement:
      'Each check of the delivered case carries the input_details the case read shows for it (the JSON it was ' +
      'created with).',
    source:
      'interface § Resources › Check (input_details: "Exposed through the case read API and webhooks"); § Events 2 ' +
      '("Check input_details and case data are exposed in webhooks as in the case read representation")',
    decision: "Judged on the checks the body carries; a body without a checks array is WEBHOOK-BODY-CASE's.",
  },
  {
    id: 'WEBHOOK-ONE-PER-COMPLETION',
    level: 'SHOULD',
    area: 'webhook',
    statement:
      'A completion is notified once: after the receiver acknowledged a delivery with any 2xx (200, 201, 202 and ' +
      '204 are each judged), no second delivery for the same completion arrives.',
    source: `${EVENTS_1}; RFC 9110 §9.2.2 (non-idempotent requests are not repeated without cause); RFC 9110 §15.3`,
    decision:
      'SHOULD, not MUST: the interface says "a webhook is sent" but leaves delivery semantics unshown, and ' +
      'at-least-once senders are common; a receiver that is not idempotent is harmed by a second delivery it ' +
      'already acknowledged, so a duplicate is a warning (in the spirit of RFC 9110 §9.2.2, which discourages ' +
      'repeating a non-idempotent request without cause). Every 2xx says the request was received and accepted ' +
      '(RFC 9110 §15.3): a sender that takes only a 200 (or a 200 and a 204) as success repeats what was ' +
      'acknowledged, so the baseline case is answered 204 and four cases processed at once 200, 201, 202 and 204. ' +
      'Retries are not shown: sending again after a failed (non-2xx) delivery is a retry and only recorded ' +
      '(WEBHOOK-RETRY-AFTER-500); sending again a delivery the receiver acknowledged is a second webhook for one ' +
      'completion, unless it carries the same delivery id header (Webhook-Id, Svix-Id, X-Delivery-Id, ' +
      'Idempotency-Key, …) as the one acknowledged: at-least-once delivery a receiver can deduplicate is recorded ' +
      '(WEBHOOK-DUPLICATES), not warned. Watched for a quiet period (twice the observed delivery latency, at least ' +
      '1 s, at most the webhook deadline); later duplicates are not seen.',
  },
  {
    id: 'WEBHOOK-NO-REPEAT-ON-WRITE',
    level: 'SHOULD',
    area: 'webhook',
    statement:
      'A write to a case whose completion was already delivered (a PATCH, a bulk update item) is not announced as ' +
      'another completion: no delivery at its webhook_url carries the case as the write left it.',
    source:
      `${EVENTS_1}; § Endpoints › PATCH (webhook_url: "webhook sent on case completion"); RFC 9110 §9.2.2 ` +
      '(a non-idempotent request is not sent again without cause)',
    decision:
      'SHOULD: the webhook is sent "when case processing completes", ' +
      'and a write to a complete case completes nothing, but the interface does not say no other webhook may go to ' +
      'the URL (request shape and events are not shown), so a receiver told "complete" again is warned, not ' +
      'failed. A delivery after the writes is counted unless it repeats one from before them (the same body, or ' +
      "the same delivery id header): a late repeat of the completion is WEBHOOK-ONE-PER-COMPLETION's. Watched for " +
      'the quiet period after the writes are answered.',
  },
  {
    id: 'WEBHOOK-NEW-URL-ONLY',
    level: 'MUST',
    area: 'webhook',
    statement:
      'A case whose webhook_url is changed by PATCH before its processing completes notifies the new URL and never ' +
      'the one it replaced.',
    source: `${EVENTS_1}; § Endpoints › PATCH (webhook_url: "webhook sent on case completion")`,
    decision:
      'Judged for a change before processing starts and for one while it runs (the PATCH answer showing is_complete ' +
      'false proves the change came first; when processing completes before the PATCH lands, the change before ' +
      'start judges it alone, and the report says so); the old URL is watched for the quiet period after the new ' +
      'one is notified.',
  },
  {
    id: 'WEBHOOK-NULL-NO-DELIVERY',
    level: 'MUST',
    area: 'webhook',
    statement:
      'A case whose webhook_url was set to null by PATCH before its processing completes gets no delivery at the ' +
      'URL it had before.',
    source: `${EVENTS_1}; § Resources › Case (webhook_url: string or null)`,
    decision:
      'Silence is observable only where a URL was set before: that URL is watched for the quiet period after the ' +
      'case reads complete. Judged only when the server delivers at all (WEBHOOK-DELIVERED). Judged for a case set ' +
      'to null before processing starts and for one while it runs; when processing completes before the second ' +
      'PATCH lands, the first judges it alone, and the report says so.',
  },
  {
    id: 'WEBHOOK-NO-CROSSTALK',
    level: 'MUST',
    area: 'webhook',
    statement:
      'Several cases processed at the same time each get a delivery at their own webhook_url carrying their own ' +
      'case, and none carrying another case.',
    source: `${EVENTS_1}; § Events 2`,
    decision:
      'The case is recognised by its id (as for WEBHOOK-BODY-CASE); the rest of each body is judged by the other ' +
      'requirements.',
  },
  {
    id: 'WEBHOOK-NOT-HELD-UP',
    level: 'MUST',
    area: 'webhook',
    statement:
      "A receiver that does not answer a delivery does not hold up another case's webhook: while one case's " +
      'delivery waits for its answer, another case that completes is delivered within the webhook deadline.',
    source: `${EVENTS_1}; § Resources › Case (webhook_url: "called on case completion")`,
    decision:
      "MUST: each case's webhook is owed when that case's processing completes, at its own webhook_url; nothing " +
      "in the interface lets one receiver's answer decide when another case is notified, and a webhook that does " +
      "not come within the deadline fails WEBHOOK-DELIVERED, whatever kept it. The receiver holds one URL's answer " +
      'until the other case is delivered or the deadline passes; the other URL is on the same host, as an ' +
      "organisation's webhook URLs usually are. A sender that gives up on the silent receiver before the deadline " +
      '(a delivery timeout) conforms: the deadline is the measure, not how the deliveries are scheduled. Judged ' +
      'after the other webhook checks, so a sender held up holds up none of theirs.',
  },
  {
    id: 'WEBHOOK-METHOD',
    level: 'OBSERVE',
    area: 'webhook',
    statement: 'The HTTP method of the completion webhook.',
    source: NOT_SHOWN,
  },
  {
    id: 'WEBHOOK-CONTENT-TYPE',
    level: 'OBSERVE',
    area: 'webhook',
    statement:
      'The Content-Type of the completion webhook, and other headers it carries (User-Agent, event or delivery ids).',
    source: NOT_SHOWN,
  },
  {
    id: 'WEBHOOK-ENVELOPE',
    level: 'OBSERVE',
    area: 'webhook',
    statement:
      "Where the case sits in the webhook's body: the whole body, or inside an envelope, and the envelope's other " +
      'fields.',
    source: NOT_SHOWN,
  },
  {
    id: 'WEBHOOK-AUTH-HEADERS',
    level: 'OBSERVE',
    area: 'webhook',
    statement: 'Signature or other authentication headers on the webhook (their names and form; never their values).',
    source: NOT_SHOWN,
  },
  {
    id: 'WEBHOOK-DUPLICATES',
    level: 'OBSERVE',
    area: 'webhook',
    statement: 'How many deliveries arrived per completion, for each case the suite watched.',
    source: NOT_SHOWN,
  },
  {
    id: 'WEBHOOK-LATENCY',
    level: 'OBSERVE',
    area: 'webhook',
    statement:
      "Time from the start-processing answer to the delivery, and from the delivered case's updated_at (server " +
      'clock) to its arrival; for the cases in every state, the spread of those times and the cases not complete ' +
      'at the deadline.',
    source: 'interface § Events 1 (sent "when case processing completes"; the delay is not shown)',
  },
  {
    id: 'WEBHOOK-RETRY-AFTER-500',
    level: 'OBSERVE',
    area: 'webhook',
    statement:
      'What the server does when the receiver answers a delivery once with 500: whether it sends it again, after ' +
      'how long, and with the same body.',
    source: NOT_SHOWN,
  },
  {
    id: 'WEBHOOK-STRAYS',
    level: 'OBSERVE',
    area: 'webhook',
    statement: 'Requests that reached the webhook receiver at a path no case was given (never counted as deliveries).',
    source: `${EVENTS_1}`,
  },
]);
