import { splitMentions } from "#shared/mentions/mentions.ts";

/** A comment's text with each `@[Name](id)` shown as a highlighted "@Name". */
export function MentionText({ message }: { message: string }) {
  return (
    <>
      {splitMentions(message).map((part, index) =>
        part.kind === "text" ? (
          part.text
        ) : (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text never reorder.
            key={index}
            className="rounded bg-indigo-50 px-0.5 font-medium text-indigo-700"
          >
            @{part.name}
          </span>
        ),
      )}
    </>
  );
}
