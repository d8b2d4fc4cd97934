import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";
// English, the source language, is active in every client test (decision 038): tests find the English texts.
import "#client/lib/i18n.ts";

// jsdom lays nothing out and has no scrollIntoView; the forms call it to keep buttons above toasts.
Element.prototype.scrollIntoView ??= () => {};

// Screens load some parts on demand (lazy chunks: the create-ticket form, the notification bell); in tests
// that is a dynamic import Vite transforms on first use, which on a loaded machine takes over the default 1 s
// that findBy… waits. A wait, not a timed assertion: a test still fails when the thing never appears.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
