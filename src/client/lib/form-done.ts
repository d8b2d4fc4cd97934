import { useEffect, useState } from "react";
import { type FormDone, formDoneOf, formDoneParam } from "#shared/page-rendering/page-forms.ts";
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
