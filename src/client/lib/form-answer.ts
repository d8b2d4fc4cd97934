import { useEffect, useState } from "react";
import type { FormAnswer } from "#shared/page-rendering/server-rendered.ts";

/**
 * The answer to a form posted without the app's code (decision 065): the server drew the page again with
 * it (src/client/server-rendering.tsx), and the browser hydrates that page with it (main.tsx). The form
 * named by it starts from it, once: a later visit to the same form starts empty.
 */
let pending: FormAnswer | null = null;

export function setFormAnswer(answer: FormAnswer | null | undefined): void {
  pending = answer ?? null;
}

/** The answer for the form `name`, when the page was drawn with one; read on the form's first render. */
export function useFormAnswer(name: string): FormAnswer | null {
  const [answer] = useState(() => (pending?.form === name ? pending : null));
  useEffect(() => {
    if (answer && pending === answer) pending = null;
  }, [answer]);
  return answer;
}
