import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { MessageSquareText } from "lucide-react";
import { type KeyboardEvent, type RefObject, useEffect, useId, useRef, useState } from "react";
import { Badge } from "#client/components/ui/badge.tsx";
import { Button } from "#client/components/ui/button.tsx";
import { cn } from "#client/components/ui/cn.ts";
import {
  cannedResponseListQuery,
  matchesSearch,
} from "#client/features/canned-responses/canned-responses.api.ts";
import { Link } from "#client/lib/router/links.tsx";
import type { CommentEditor } from "#client/lib/text-insertion.ts";
import { useActor } from "#client/lib/use-actor.ts";
import type { CannedResponse } from "#shared/canned-responses/canned-response.schemas.ts";
import { fillPlaceholders } from "#shared/canned-responses/fill-placeholders.ts";
import { can } from "#shared/permissions.ts";
import type { Ticket } from "#shared/tickets/ticket.schemas.ts";

/** Ctrl+/ (⌘+/ on a Mac) in the comment box opens the picker. */
export const pickerShortcut = { keys: "Control+/ Meta+/", label: "Ctrl+/" };
const isShortcut = (event: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean }) =>
  event.key === "/" && (event.ctrlKey || event.metaKey) && !event.altKey;

const previewLength = 140;
const preview = (text: string) =>
  text.length > previewLength ? `${text.slice(0, previewLength).trimEnd()}…` : text;

/**
 * "Insert response" beside a staff member's comment box: a searchable list (a combobox with its listbox)
 * that fills the response's placeholders for this ticket and puts it at the cursor. Type to filter, ↑/↓ to
 * move, Enter to insert, Esc to close; focus goes back to the comment box either way.
 */
export function CannedResponsePicker({ ticket, editor }: { ticket: Ticket; editor: CommentEditor }) {
  const { t } = useLingui();
  const actor = useActor();
  const [isOpen, setIsOpen] = useState(false);
  const isStaff = actor ? can.accessCannedResponses(actor) : false;
  const toggleRef = useRef<HTMLButtonElement>(null);
  const { textareaRef } = editor;

  useEffect(() => {
    const textarea = textareaRef.current;
    if (!isStaff || !textarea) return;
    const handleKeyDown = (event: globalThis.KeyboardEvent) => {
      if (!isShortcut(event)) return;
      event.preventDefault();
      setIsOpen(true);
    };
    textarea.addEventListener("keydown", handleKeyDown);
    return () => textarea.removeEventListener("keydown", handleKeyDown);
  }, [isStaff, textareaRef]);

  if (!actor || !isStaff) return null;

  const close = () => {
    setIsOpen(false);
    textareaRef.current?.focus();
  };
  const insert = (response: CannedResponse) => {
    setIsOpen(false);
    editor.insert(
      fillPlaceholders(response.body, { ticket, creatorName: ticket.createdByName, agentName: actor.name }),
    );
  };

  return (
    <>
      <Button
        ref={toggleRef}
        type="button"
        variant="ghost"
        size="sm"
        aria-expanded={isOpen}
        aria-haspopup="dialog"
        aria-keyshortcuts={pickerShortcut.keys}
        title={t`Insert a canned response (${pickerShortcut.label})`}
        onClick={() => (isOpen ? close() : setIsOpen(true))}
        className="-ml-2"
      >
        <MessageSquareText aria-hidden="true" className="size-4" />
        <Trans>Insert response</Trans>
        <kbd className="hidden rounded border border-slate-300 bg-white px-1 font-sans text-[11px] text-slate-500 sm:inline">
          {pickerShortcut.label}
        </kbd>
      </Button>
      {isOpen ? <PickerPanel toggleRef={toggleRef} onInsert={insert} onClose={close} /> : null}
    </>
  );
}

function PickerPanel({
  toggleRef,
  onInsert,
  onClose,
}: {
  /** The Insert response button: a click on it toggles the list itself, so it is not "elsewhere". */
  toggleRef: RefObject<HTMLButtonElement | null>;
  onInsert: (response: CannedResponse) => void;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const id = useId();
  const listboxId = `${id}-listbox`;
  const panelRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [search, setSearch] = useState("");
  const [activeIndex, setActiveIndex] = useState(0);
  const responses = useQuery(cannedResponseListQuery());
  const matches = (responses.data ?? []).filter((response) => matchesSearch(response, search));
  const active = matches[Math.min(activeIndex, matches.length - 1)];
  const optionId = (response: CannedResponse) => `${id}-option-${response.id}`;

  useEffect(() => {
    inputRef.current?.focus();
    panelRef.current?.scrollIntoView?.({ block: "nearest" });
  }, []);

  // A click anywhere else closes the list, as Escape does, without taking focus from where it went.
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    const handlePointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panelRef.current?.contains(target) && !toggleRef.current?.contains(target)) closeRef.current();
    };
    document.addEventListener("pointerdown", handlePointerDown);
    return () => document.removeEventListener("pointerdown", handlePointerDown);
  }, [toggleRef]);

  useEffect(() => {
    if (!active) return;
    document.getElementById(optionId(active))?.scrollIntoView?.({ block: "nearest" });
  });

  function handleKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const count = matches.length;
    const current = Math.min(activeIndex, count - 1);
    const moves: Record<string, number> = {
      ArrowDown: current + 1 >= count ? 0 : current + 1,
      ArrowUp: current <= 0 ? count - 1 : current - 1,
    };
    if (event.key in moves) {
      event.preventDefault();
      if (count > 0) setActiveIndex(moves[event.key]!);
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (active) onInsert(active);
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    }
  }

  return (
    <div
      ref={panelRef}
      role="dialog"
      aria-label={t`Insert a canned response`}
      className="absolute inset-x-0 top-full z-30 mt-2 flex flex-col rounded-xl bg-white shadow-lg ring-1 ring-slate-200"
    >
      <div className="border-b border-slate-100 p-2">
        <input
          ref={inputRef}
          type="text"
          role="combobox"
          aria-label={t`Search canned responses`}
          aria-expanded="true"
          aria-controls={listboxId}
          aria-autocomplete="list"
          aria-activedescendant={active ? optionId(active) : undefined}
          autoComplete="off"
          placeholder={t`Type to filter…`}
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setActiveIndex(0);
          }}
          onKeyDown={handleKeyDown}
          className="block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/20"
        />
      </div>
      <div
        id={listboxId}
        role="listbox"
        aria-label={t`Canned responses`}
        className="max-h-72 overflow-y-auto p-1"
      >
        {matches.map((response) => {
          const isActive = response === active;
          return (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's input handles the keys (aria-activedescendant).
            <div
              key={response.id}
              id={optionId(response)}
              role="option"
              aria-selected={isActive}
              tabIndex={-1}
              onPointerDown={(event) => event.preventDefault()}
              onClick={() => onInsert(response)}
              className={cn(
                "cursor-pointer rounded-lg px-3 py-2 text-sm",
                isActive ? "bg-indigo-50 ring-1 ring-indigo-200" : "hover:bg-slate-50",
              )}
            >
              <span className="flex items-center gap-2">
                <span className="min-w-0 font-medium break-words text-slate-900">{response.title}</span>
                <Badge tone={response.scope === "shared" ? "indigo" : "slate"}>
                  {response.scope === "shared" ? t`Shared` : t`Personal`}
                </Badge>
              </span>
              <span className="mt-0.5 block text-xs break-words whitespace-pre-line text-slate-500">
                {preview(response.body)}
              </span>
            </div>
          );
        })}
      </div>
      {responses.isPending ? (
        <p className="px-4 pb-3 text-sm text-slate-500">
          <Trans>Loading responses…</Trans>
        </p>
      ) : responses.isError ? (
        <p className="px-4 pb-3 text-sm text-red-600">
          <Trans>The responses could not be loaded.</Trans>
        </p>
      ) : matches.length === 0 ? (
        <p className="px-4 pb-3 text-sm text-slate-500">
          {search ? t`No response matches.` : t`You have no canned responses yet.`}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-100 px-4 py-2 text-xs text-slate-500">
        <span>
          <Trans>↑/↓ move · Enter inserts · Esc closes</Trans>
        </span>
        <Link to="/canned-responses" className="font-medium text-indigo-600 hover:text-indigo-500">
          <Trans>Manage responses</Trans>
        </Link>
      </div>
    </div>
  );
}
