import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { type Shortcuts, useShortcuts } from "./use-shortcuts.ts";

function Screen({ shortcuts, withDialog = false }: { shortcuts: Shortcuts; withDialog?: boolean }) {
  useShortcuts(shortcuts);
  return (
    <div>
      <button type="button">A button</button>
      <label>
        Title <input />
      </label>
      <label>
        Message <textarea />
      </label>
      <label>
        Priority
        <select>
          <option>Low</option>
        </select>
      </label>
      {withDialog ? (
        <div role="dialog" aria-modal="true" aria-label="Open dialog">
          <button type="button">Inside</button>
        </div>
      ) : null}
    </div>
  );
}

describe("useShortcuts", () => {
  it("runs the shortcut for a key pressed on the page, and ? with Shift", async () => {
    const j = vi.fn();
    const help = vi.fn();
    const user = userEvent.setup();
    render(<Screen shortcuts={{ j, "?": help }} />);
    await user.keyboard("j");
    await user.click(screen.getByRole("button", { name: "A button" }));
    await user.keyboard("?");
    expect(j).toHaveBeenCalledTimes(1);
    expect(help).toHaveBeenCalledTimes(1);
  });

  it("never eats a letter typed in an input, a textarea or a select", async () => {
    const j = vi.fn();
    const user = userEvent.setup();
    render(<Screen shortcuts={{ j }} />);
    await user.type(screen.getByRole("textbox", { name: "Title" }), "jj");
    await user.type(screen.getByRole("textbox", { name: "Message" }), "j");
    screen.getByRole("combobox", { name: "Priority" }).focus();
    await user.keyboard("j");
    expect(j).not.toHaveBeenCalled();
    expect(screen.getByRole("textbox", { name: "Title" })).toHaveValue("jj");
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveValue("j");
  });

  it("leaves keys with Ctrl, Alt or ⌘ to the browser", async () => {
    const j = vi.fn();
    const user = userEvent.setup();
    render(<Screen shortcuts={{ j }} />);
    await user.keyboard("{Control>}j{/Control}{Alt>}j{/Alt}{Meta>}j{/Meta}");
    expect(j).not.toHaveBeenCalled();
  });

  it("opens the palette with Ctrl+K or ⌘+K, even from a field", async () => {
    const palette = vi.fn();
    const user = userEvent.setup();
    render(<Screen shortcuts={{ "Mod+k": palette }} />);
    await user.keyboard("{Control>}k{/Control}");
    await user.click(screen.getByRole("textbox", { name: "Title" }));
    await user.keyboard("{Meta>}k{/Meta}");
    expect(palette).toHaveBeenCalledTimes(2);
  });

  it("waits while a dialog is open", async () => {
    const j = vi.fn();
    const back = vi.fn();
    const user = userEvent.setup();
    render(<Screen shortcuts={{ j, Escape: back }} withDialog />);
    screen.getByRole("button", { name: "Inside" }).focus();
    await user.keyboard("j{Escape}");
    expect(j).not.toHaveBeenCalled();
    expect(back).not.toHaveBeenCalled();
  });

  it("prevents the browser's default only for a key the handler took", () => {
    render(<Screen shortcuts={{ ArrowDown: () => false, j: () => undefined }} />);
    const down = new KeyboardEvent("keydown", { key: "ArrowDown", bubbles: true, cancelable: true });
    const j = new KeyboardEvent("keydown", { key: "j", bubbles: true, cancelable: true });
    document.body.dispatchEvent(down);
    document.body.dispatchEvent(j);
    expect(down.defaultPrevented).toBe(false);
    expect(j.defaultPrevented).toBe(true);
  });
});
