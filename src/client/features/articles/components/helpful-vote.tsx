import { Trans } from "@lingui/react/macro";
import { ThumbsDown, ThumbsUp } from "lucide-react";
import { Button } from "#client/components/ui/button.tsx";
import { useVoteOnArticle } from "#client/features/articles/articles.api.ts";
import type { Article } from "#shared/articles/article.schemas.ts";

/** "Was this helpful?": one vote per person, which a second click changes. */
export function HelpfulVote({ article }: { article: Article }) {
  const vote = useVoteOnArticle(article.id);
  const mine = vote.isPending ? (vote.variables ? "yes" : "no") : article.myVote;
  return (
    <fieldset className="flex flex-wrap items-center gap-3 border-t border-slate-100 pt-4">
      <legend className="float-left mr-1 text-sm font-medium text-slate-700">
        <Trans>Was this helpful?</Trans>
      </legend>
      <Button
        variant={mine === "yes" ? "primary" : "secondary"}
        size="sm"
        aria-pressed={mine === "yes"}
        onClick={() => vote.mutate(true)}
      >
        <ThumbsUp aria-hidden="true" className="size-4" /> <Trans>Yes</Trans>
      </Button>
      <Button
        variant={mine === "no" ? "primary" : "secondary"}
        size="sm"
        aria-pressed={mine === "no"}
        onClick={() => vote.mutate(false)}
      >
        <ThumbsDown aria-hidden="true" className="size-4" /> <Trans>No</Trans>
      </Button>
      {article.myVote ? (
        <p className="text-sm text-slate-500" role="status">
          <Trans>Thanks for your feedback.</Trans>
        </p>
      ) : null}
      {vote.isError ? (
        <p className="text-sm text-red-600">
          <Trans>Your vote was not saved. Try again.</Trans>
        </p>
      ) : null}
    </fieldset>
  );
}
