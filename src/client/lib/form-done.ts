import { t } from "@lingui/core/macro";
import { useEffect, useState } from "react";
import { type FormDone, formDone, formDoneOf, formDoneParam } from "#shared/page-rendering/page-forms.ts";
import { useLocation, useSearchParams } from "./router/router.tsx";

/**
 * What a form posted without the app's code did, when the server redirected here after it (`?done=…`,
 * decision 065): the page says it where the app would have shown a toast. The parameter is dropped once
 * the app's code runs, so that a reload does not say it again; what it said stays on this page only.
 */
export function useFormDone(): FormDone | null {
  const { pathname } = useLocation();
  const [searchParams, setSearchParams] = useSearchParams();
  const [said] = useState(() => ({ pathname, done: formDoneOf(searchParams) }));
  const isInUrl = searchParams.has(formDoneParam);
  useEffect(() => {
    if (!isInUrl) return;
    setSearchParams(
      (current) => {
        current.delete(formDoneParam);
        return current;
      },
      { replace: true },
    );
  }, [isInUrl, setSearchParams]);
  return said.pathname === pathname ? said.done : null;
}

/**
 * What a form posted without the app's code did, in the words of the app's toast for it; `status` is the
 * ticket's new status as shown, for a status change.
 */
export function formDoneText(done: FormDone, status = ""): string {
  switch (done) {
    case formDone.commentAdded:
      return t`Comment added successfully`;
    case formDone.noteAdded:
      return t`Internal note added`;
    case formDone.statusUpdated:
      return t`Ticket status updated to ${status}`;
    case formDone.ticketAssigned:
      return t`Ticket assigned successfully`;
    case formDone.ticketCreated:
      return t`Ticket created successfully!`;
    case formDone.registered:
      return t`Registration was a success`;
  }
}
