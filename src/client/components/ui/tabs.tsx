import { type KeyboardEvent, useRef } from "react";
import { cn } from "./cn.ts";

interface TabsProps<T extends string> {
  label: string;
  /** Prefix for the tab ids; the panel points at `${idPrefix}-tab-${value}` with aria-labelledby. */
  idPrefix: string;
  /** `count`, when given, is drawn after the label as a small figure (a queue's size). */
  tabs: readonly { value: T; label: string; count?: string }[];
  value: T;
  onChange: (value: T) => void;
}

export const tabIdFor = (idPrefix: string, value: string) => `${idPrefix}-tab-${value}`;
export const tabPanelIdFor = (idPrefix: string) => `${idPrefix}-panel`;

/** A tablist with roving focus (arrow keys, Home, End), as WAI-ARIA describes. */
export function Tabs<T extends string>({ label, idPrefix, tabs, value, onChange }: TabsProps<T>) {
  const listRef = useRef<HTMLDivElement>(null);

  function handleKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const last = tabs.length - 1;
    const targets: Record<string, number> = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    };
    const next = targets[event.key];
    const tab = next === undefined ? undefined : tabs[next];
    if (next === undefined || !tab) return;
    event.preventDefault();
    onChange(tab.value);
    listRef.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]')[next]?.focus();
  }

  return (
    <div
      ref={listRef}
      role="tablist"
      aria-label={label}
      className="inline-flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1"
    >
      {tabs.map((tab, index) => {
        const isSelected = tab.value === value;
        return (
          <button
            key={tab.value}
            id={tabIdFor(idPrefix, tab.value)}
            type="button"
            role="tab"
            aria-selected={isSelected}
            aria-controls={tabPanelIdFor(idPrefix)}
            tabIndex={isSelected ? 0 : -1}
            onClick={() => onChange(tab.value)}
            onKeyDown={(event) => handleKeyDown(event, index)}
            className={cn(
              "rounded-md px-3 py-1.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-indigo-600",
              isSelected ? "bg-white text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900",
            )}
          >
            {tab.label}
            {/* A space, so that the tab's name reads "Unassigned 3", not "Unassigned3". */}
            {tab.count === undefined ? null : " "}
            {tab.count === undefined ? null : (
              <span
                className={cn(
                  "ms-1 rounded-full px-1.5 py-0.5 text-xs tabular-nums",
                  isSelected ? "bg-indigo-50 text-indigo-700" : "bg-slate-200 text-slate-700",
                )}
              >
                {tab.count}
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
