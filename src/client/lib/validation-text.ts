import type { MessageDescriptor } from "@lingui/core";
import { msg, t } from "@lingui/core/macro";
import { i18n } from "./i18n.ts";

/**
 * The shared zod schemas' messages ("Title is required") in the active language, for forms that check
 * with those schemas in the browser. The schemas keep their English messages for the server and the API;
 * this reads them back by shape. A message of another shape stays as it is (English).
 */

// The names the shared schemas give their fields; a custom field's own name is data and stays as it is.
const fieldNames: Record<string, MessageDescriptor> = {
  Title: msg`Title`,
  Description: msg`Description`,
  Department: msg`Department`,
  Floor: msg`Floor`,
  "Office number": msg`Office number`,
};

type Shape = [pattern: RegExp, translate: (label: string, value: string) => string];

const shapes: Shape[] = [
  [/^(.+) is required$/, (label) => t`${label} is required`],
  [/^(.+) must be text$/, (label) => t`${label} must be text`],
  [/^(.+) must be at most (\d+) characters$/, (label, max) => t`${label} must be at most ${max} characters`],
  [/^(.+) must not contain control characters$/, (label) => t`${label} must not contain control characters`],
  [/^(.+) must be valid Unicode text$/, (label) => t`${label} must be valid Unicode text`],
  [/^(.+) must be ticked$/, (label) => t`${label} must be ticked`],
  [/^(.+) must be a number$/, (label) => t`${label} must be a number`],
  [/^(.+) must be a date \(YYYY-MM-DD\)$/, (label) => t`${label} must be a date (YYYY-MM-DD)`],
  [/^(.+) must be one of its choices$/, (label) => t`${label} must be one of its choices`],
  [
    /^(.+): '(.*)' is not one of the choices$/,
    (label, value) => t`${label}: '${value}' is not one of the choices`,
  ],
  [/^(.+) is no longer asked for$/, (label) => t`${label} is no longer asked for`],
];

export function validationText(message: string): string;
export function validationText(message: string | undefined): string | undefined;
export function validationText(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  for (const [pattern, translate] of shapes) {
    const match = pattern.exec(message);
    if (!match) continue;
    const [, name = "", value = ""] = match;
    const known = fieldNames[name];
    return translate(known ? i18n._(known) : name, value);
  }
  return message;
}
