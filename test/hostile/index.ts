/** Every hostile server, by name. */
import { apiSilent } from './api-silent.ts';
import { burst5xx } from './burst-5xx.ts';
import { dropLargestBatch } from './drop-largest-batch.ts';
import { endlessBody } from './endless-body.ts';
import { hangMidRun } from './hang-mid-run.ts';
import { htmlErrors } from './html-errors.ts';
import { hugeBody } from './huge-body.ts';
import { invalidJson } from './invalid-json.ts';
import { once500 } from './once-500.ts';
import { redirect } from './redirect.ts';
import { refused } from './refused.ts';
import { reset } from './reset.ts';
import { resetMidRun } from './reset-mid-run.ts';
import { silent } from './silent.ts';
import type { Hostile } from './support.ts';
import { throttleForever } from './throttle-forever.ts';
import { tokenGarbage } from './token-garbage.ts';
import { trickleBody } from './trickle-body.ts';
import { wrongContentType } from './wrong-content-type.ts';

export const HOSTILE: Record<string, Hostile> = {
  refused,
  silent,
  reset,
  'token-garbage': tokenGarbage,
  'endless-body': endlessBody,
  'trickle-body': trickleBody,
  'throttle-forever': throttleForever,
  redirect,
  'reset-mid-run': resetMidRun,
  'hang-mid-run': hangMidRun,
  'api-silent': apiSilent,
  'huge-body': hugeBody,
  'invalid-json': invalidJson,
  'wrong-content-type': wrongContentType,
  'html-errors': htmlErrors,
  'burst-5xx': burst5xx,
  'once-500': once500,
  'drop-largest-batch': dropLargestBatch,
};
