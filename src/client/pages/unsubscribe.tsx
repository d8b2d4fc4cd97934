import { useLingui } from "@lingui/react/macro";
import { PageHeader } from "#client/components/ui/page-header.tsx";
import { UnsubscribePanel } from "#client/features/notifications/components/unsubscribe-panel.tsx";
import { useSearchParams } from "#client/lib/router/router.tsx";

/** /unsubscribe?token=…: where a notification e-mail's unsubscribe link lands; no sign-in needed. */
export default function UnsubscribePage() {
  const { t } = useLingui();
  const [searchParams] = useSearchParams();
  return (
    <>
      <PageHeader title={t`Unsubscribe`} />
      <UnsubscribePanel token={searchParams.get("token")} />
    </>
  );
}
