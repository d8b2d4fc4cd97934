import type { RefObject } from "react";

/**
 * What a comment box offers the tools beside it (saved responses, later mentions): its textarea, and a way
 * to put text at the cursor that keeps the form's state in step.
 */
export interface CommentEditor {
  textareaRef: RefObject<HTMLTextAreaElement | null>;
  /** Replaces the selection (or inserts at the cursor) with `text`, then focuses the box after it. */
  insert: (text: string) => void;
}

/** `value` with `text` in place of the selection from `start` to `end`, and where the cursor goes after it. */
export function insertAt(value: string, text: string, start: number, end = start) {
  const from = Math.max(0, Math.min(start, value.length));
  const to = Math.max(from, Math.min(end, value.length));
  return { value: value.slice(0, from) + text + value.slice(to), caret: from + text.length };
}
