import { useEffect, useRef } from "react";

/**
 * A handler for one key. Return `false` when the key turned out not to be yours (e.g. ↓ outside the
 * list): the browser then does what it always does with it.
 */
export type ShortcutHandler = (event: KeyboardEvent) => unknown;

/**
 * Keys by `event.key` ("j", "?", "Escape", "ArrowDown"), plus "Mod+k" for Ctrl+K (⌘+K on a Mac).
 * A missing or undefined entry is a key this screen does not use.
 */
export type Shortcuts = Partial<Record<string, ShortcutHandler | undefined>>;

const typingTargets = "input, textarea, select, [contenteditable]:not([contenteditable='false'])";

/** Whether the key was typed into a field (a shortcut must never eat a letter someone types). */
export function isTypingTarget(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest(typingTargets) !== null;
}

/** A modal dialog handles its own keys (Escape, Tab); the page's shortcuts wait until it closes. */
function isModalOpen(): boolean {
  return document.querySelector('[aria-modal="true"]') !== null;
}

/**
 * Which shortcut a key press is, or null when it is none: typing in a field, a key with Ctrl, Alt or ⌘
 * held (the browser's and the screen reader's), a key something else already handled, or any key while
 * a dialog is open. The only chord is Mod+k, which works from a field too, as in every palette.
 */
export function shortcutOf(event: KeyboardEvent): string | null {
  if (event.defaultPrevented || event.isComposing) return null;
  const hasMod = event.ctrlKey || event.metaKey;
  if (hasMod && !event.altKey && !event.shiftKey && event.key.toLowerCase() === "k") {
    return isModalOpen() ? null : "Mod+k";
  }
  if (hasMod || event.altKey) return null;
  if (isTypingTarget(event.target) || isModalOpen()) return null;
  return event.key;
}

/** Listens on the document while mounted (and `enabled`); the latest handlers always run. */
export function useShortcuts(shortcuts: Shortcuts, enabled = true) {
  const latest = useRef(shortcuts);
  latest.current = shortcuts;

  useEffect(() => {
    if (!enabled) return;
    function handleKeyDown(event: KeyboardEvent) {
      const name = shortcutOf(event);
      const handler = name === null ? undefined : latest.current[name];
      if (!handler) return;
      if (handler(event) !== false) event.preventDefault();
    }
    document.addEventListener("keydown", handleKeyDown);
    return () => document.removeEventListener("keydown", handleKeyDown);
  }, [enabled]);
}
