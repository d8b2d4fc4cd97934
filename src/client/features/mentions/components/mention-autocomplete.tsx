import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { cn } from "#client/components/ui/cn.ts";
import { staffQuery } from "#client/features/mentions/mention.api.ts";
import type { StaffMember } from "#shared/mentions/mention.schemas.ts";
import { mentionToken } from "#shared/mentions/mentions.ts";

export interface TextareaAddonProps {
  textarea: HTMLTextAreaElement | null;
  /** Replaces the whole text (the form owns the value). */
  setText: (text: string) => void;
}

interface Draft {
  /** Where the "@" is. */
  start: number;
  /** The caret: the end of what the person typed after "@". */
  end: number;
  query: string;
}

/** "@" at the start or after a space, then up to 30 letters of a name, right before the caret. */
function draftAt(value: string, caret: number | null): Draft | null {
  if (caret === null) return null;
  const match = /(?:^|\s)@([\p{L}\p{N}._'-]{0,30})$/u.exec(value.slice(0, caret));
  if (!match) return null;
  const query = match[1] ?? "";
  return { start: caret - query.length - 1, end: caret, query };
}

const roleLabel = { technician: msg`Technician`, admin: msg`Administrator` } as const;

/**
 * Staff type "@" and letters in the comment box: a listbox of active technicians and admins; ↑/↓ move,
 * Enter or Tab inserts `@[Name](id)`, Esc closes. The textarea becomes an ARIA combobox while mounted
 * (its label stays the same, so it is still found by "Add a comment").
 */
export function MentionAutocomplete({ textarea, setText }: TextareaAddonProps) {
  const { t, i18n } = useLingui();
  const listboxId = useId();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [active, setActive] = useState(0);
  const staff = useQuery({
    ...staffQuery(draft?.query ?? ""),
    enabled: draft !== null,
    placeholderData: keepPreviousData,
  });
  const options = draft ? (staff.data ?? []) : [];
  const isOpen = options.length > 0;
  const activeIndex = Math.min(active, Math.max(options.length - 1, 0));
  const optionId = (index: number) => `${listboxId}-option-${index}`;

  // The native listeners below read the latest render's state.
  const latest = useRef({ isOpen, options, activeIndex, draft });
  latest.current = { isOpen, options, activeIndex, draft };
  const dismissedAt = useRef<number | null>(null);

  const choose = (person: StaffMember) => {
    const current = latest.current.draft;
    if (!textarea || !current) return;
    const token = `${mentionToken({ userId: person.id, name: person.name })} `;
    const value = textarea.value;
    setText(value.slice(0, current.start) + token + value.slice(current.end));
    setDraft(null);
    const caret = current.start + token.length;
    requestAnimationFrame(() => {
      textarea.focus();
      textarea.setSelectionRange(caret, caret);
    });
  };
  const chooseRef = useRef(choose);
  chooseRef.current = choose;

  useEffect(() => {
    if (!textarea) return;
    textarea.setAttribute("role", "combobox");
    textarea.setAttribute("aria-autocomplete", "list");
    textarea.setAttribute("aria-controls", listboxId);
    const update = () => {
      const next = draftAt(textarea.value, textarea.selectionStart);
      if (next && next.start === dismissedAt.current) return setDraft(null);
      dismissedAt.current = null;
      setDraft(next);
      setActive(0);
    };
    const handleKeyDown = (event: KeyboardEvent) => {
      const { isOpen, options, activeIndex, draft } = latest.current;
      if (!isOpen) return;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        setActive((activeIndex + step + options.length) % options.length);
      } else if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        chooseRef.current(options[activeIndex]!);
      } else if (event.key === "Escape") {
        // Only the list closes: a dialog around the form stays open.
        event.preventDefault();
        event.stopPropagation();
        dismissedAt.current = draft?.start ?? null;
        setDraft(null);
      }
    };
    const handleKeyUp = (event: KeyboardEvent) => {
      if (["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) update();
    };
    const handleBlur = () => setDraft(null);
    textarea.addEventListener("input", update);
    textarea.addEventListener("click", update);
    textarea.addEventListener("keydown", handleKeyDown);
    textarea.addEventListener("keyup", handleKeyUp);
    textarea.addEventListener("blur", handleBlur);
    return () => {
      textarea.removeEventListener("input", update);
      textarea.removeEventListener("click", update);
      textarea.removeEventListener("keydown", handleKeyDown);
      textarea.removeEventListener("keyup", handleKeyUp);
      textarea.removeEventListener("blur", handleBlur);
      for (const name of [
        "role",
        "aria-autocomplete",
        "aria-controls",
        "aria-expanded",
        "aria-activedescendant",
      ])
        textarea.removeAttribute(name);
    };
  }, [textarea, listboxId]);

  useEffect(() => {
    if (!textarea) return;
    textarea.setAttribute("aria-expanded", String(isOpen));
    if (isOpen) textarea.setAttribute("aria-activedescendant", optionId(activeIndex));
    else textarea.removeAttribute("aria-activedescendant");
  });

  return (
    <div className="relative">
      <div
        id={listboxId}
        role="listbox"
        aria-label={t`Mention a technician or administrator`}
        hidden={!isOpen}
        className="absolute inset-x-0 top-1 z-20 max-h-64 overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
      >
        {options.map((person, index) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard works through the combobox (↑/↓/Enter).
          <div
            key={person.id}
            id={optionId(index)}
            role="option"
            tabIndex={-1}
            aria-selected={index === activeIndex}
            // Keeps the focus (and the caret) in the textarea.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(person)}
            className={cn(
              "flex cursor-pointer items-baseline justify-between gap-3 px-3 py-2 text-sm",
              index === activeIndex ? "bg-indigo-50 text-indigo-900" : "text-slate-700",
            )}
          >
            <span className="truncate font-medium">{person.name}</span>
            <span className="shrink-0 text-xs text-slate-500">{i18n._(roleLabel[person.role])}</span>
          </div>
        ))}
      </div>
    </div>
  );
}
