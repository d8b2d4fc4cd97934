import { useLingui } from "@lingui/react/macro";
import { Star } from "lucide-react";
import { cn } from "#client/components/ui/cn.ts";
import { ratingLabels } from "#client/features/tickets/ticket-labels.ts";
import { isRating, ratings } from "#shared/tickets/ticket-activity.schemas.ts";

/** Read-only: "★★★★☆ Satisfied", announced as "4 out of 5 stars". */
export function RatingStars({ rating, size = "md" }: { rating: number; size?: "sm" | "md" }) {
  const { t, i18n } = useLingui();
  return (
    <span className="inline-flex items-center gap-2">
      <span role="img" aria-label={t`${rating} out of 5 stars`} className="inline-flex gap-0.5">
        {ratings.map((value) => (
          <StarIcon key={value} isFilled={value <= rating} size={size} />
        ))}
      </span>
      {isRating(rating) ? (
        <span className={cn("font-medium text-slate-900", size === "sm" ? "text-xs" : "text-sm")}>
          {i18n._(ratingLabels[rating])}
        </span>
      ) : null}
    </span>
  );
}

export function StarIcon({ isFilled, size = "md" }: { isFilled: boolean; size?: "sm" | "md" | "lg" }) {
  return (
    <Star
      aria-hidden="true"
      className={cn(
        size === "sm" ? "size-3.5" : size === "md" ? "size-5" : "size-7",
        isFilled ? "fill-amber-400 text-amber-400" : "fill-transparent text-slate-300",
      )}
    />
  );
}
