/**
 * @module What a text field of a job may hold (docs/api.md#jobs, issue 12): a length in characters (code points, so 80
 * emoji are 80 characters), never a broken character (an unpaired UTF-16 surrogate, which would be stored as
 * U+FFFD and read back other than it was answered), and for a name, one visible character at least and no
 * control characters or text-direction overrides (a name is shown on one line, in lists other people read).
 * Pure; each problem is one sentence.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The sentence for a field holding an unpaired UTF-16 surrogate (a broken character), or null. */
export function brokenCharacterProblem(field: string, value: string): string | null {
  return LONE_SURROGATE.test(value) ? `"${field}" holds a broken character (an unpaired UTF-16 surrogate); send valid Unicode text.` : null;
}
/** C0/C1 controls (NUL, newlines, escape …) and the bidi embeddings, overrides and isolates. */
const NAME_FORBIDDEN = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;
/** Something that shows: not a space, a control, a format character (zero-width, joiners) or a filler. */
const VISIBLE = /[^\p{White_Space}\p{Cc}\p{Cf}\u115F\u1160\u2800\u3164\uFFA0]/u;

/** Lengths count characters (code points), not UTF-16 units. */
export const lengthOf = (s: string): number => [...s].length;

/** The problem with a free text field (`text`, `command`): blank, too long, or a broken character. */
export function textProblem(field: string, value: string, max: number): string | null {
  const broken = brokenCharacterProblem(field, value);
  if (broken) return broken;
  if (value.trim() === "") return `"${field}" must not be blank.`;
  const n = lengthOf(value);
  return n <= max ? null : `"${field}" must be 1 to ${max} characters long; got ${n}.`;
}

/** The problem with a name (trimmed before it is stored): as `textProblem`, and it must show on one line. */
export function nameProblem(field: string, value: string, max: number): string | null {
  const broken = brokenCharacterProblem(field, value);
  if (broken) return broken;
  if (NAME_FORBIDDEN.test(value)) return `"${field}" must not hold control characters or text-direction overrides (U+202A–U+202E, U+2066–U+2069).`;
  if (!VISIBLE.test(value)) return `"${field}" must hold a visible character, such as "Inbox summary"; got only spaces or invisible characters.`;
  const n = lengthOf(value.trim());
  return n <= max ? null : `"${field}" must be 1 to ${max} characters long; got ${n}.`;
}
