import { Trans } from "@lingui/react/macro";
import { Search } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { useShortcuts } from "#client/lib/use-shortcuts.ts";

// Both load on first use: the first page costs nothing for them.
const loadPalette = () => import("#client/features/search/components/command-palette.tsx");
const CommandPalette = lazy(loadPalette);
const KeyboardHelp = lazy(() => import("./keyboard-help.tsx"));

type Open = "none" | "palette" | "help";

/**
 * The header's search button, Ctrl/⌘+K for the command palette and `?` for the shortcut help, for
 * anyone signed in. Each dialog returns focus where it was when it closes.
 */
export function CommandLauncher() {
  const [open, setOpen] = useState<Open>("none");
  const close = () => setOpen("none");

  useShortcuts({
    "Mod+k": () => setOpen("palette"),
    "?": () => setOpen("help"),
  });

  return (
    <>
      <button
        type="button"
        aria-keyshortcuts="Control+K Meta+K"
        aria-haspopup="dialog"
        onClick={() => setOpen("palette")}
        // Starts loading the palette as soon as someone heads for the button.
        onPointerEnter={() => void loadPalette()}
        onFocus={() => void loadPalette()}
        className="flex h-10 items-center gap-2 rounded-lg px-2.5 text-sm text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 md:ring-1 md:ring-slate-200 md:ring-inset"
      >
        <Search aria-hidden="true" className="size-5 md:size-4" />
        {/* The name, "Search tickets and people", is the button's own text, so what is seen is part of what
            is said (axe's label-content-name-mismatch); "Search" shows from md up. Decision 036. */}
        <span className="sr-only md:not-sr-only">
          <Trans>Search</Trans>
        </span>
        <span className="sr-only">
          <Trans>{" tickets and people"}</Trans>
        </span>
        {/* Said by aria-keyshortcuts. */}
        <span aria-hidden="true" className="hidden lg:inline">
          <kbd className="rounded bg-slate-100 px-1.5 font-sans text-xs text-slate-600">
            <Trans>Ctrl K</Trans>
          </kbd>
        </span>
      </button>
      {open !== "none" ? (
        <Suspense fallback={null}>
          {open === "palette" ? <CommandPalette onClose={close} /> : <KeyboardHelp onClose={close} />}
        </Suspense>
      ) : null}
    </>
  );
}
