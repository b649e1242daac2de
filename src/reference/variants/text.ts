/**
 * Variants of strings: what is stored, and how a length is counted (the interface gives limits
 * in "characters" without saying which).
 */
import { variant } from '../switches.ts';

export const TEXT_VARIANTS = [
  variant(
    'text.nfc',
    "external_id, webhook_url and a customer's full_name and external_id are stored NFC-normalised",
    (base) => ({ text: (s) => base.text(s).normalize('NFC') }),
  ),
  variant(
    'text.trim',
    "external_id, webhook_url and a customer's full_name and external_id are stored trimmed of surrounding " +
      "whitespace (Django REST framework's CharField default)",
    (base) => ({ text: (s) => base.text(s).trim() }),
  ),
  variant(
    'limit.utf16',
    'length limits count UTF-16 code units (JavaScript and Java .length), not code points: an emoji counts twice',
    () => ({ textLength: (s) => s.length }),
  ),
];
