import { act, useState } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  appReadyKey,
  earlyChangeKey,
  earlyClickKey,
  earlySubmitKey,
  themeScript,
} from "#shared/theme/theme-script.ts";
import { EarlyClickReplay } from "./early-click.ts";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A drawn page's button: how many presses React has handled, shown in its label. */
function Page({ drawnAt = "" }: { drawnAt?: string }) {
  const [presses, setPresses] = useState(0);
  const [language, setLanguage] = useState("en");
  return (
    <main>
      <select
        aria-label="Language"
        name="language"
        value={language}
        onChange={(event) => setLanguage(event.target.value)}
      >
        <option value="en">English</option>
        <option value="de">Deutsch</option>
      </select>
      <p>Language: {language}</p>
      <p>{drawnAt}</p>
      <button type="button" onClick={() => setPresses((count) => count + 1)}>
        Create New Ticket ({presses})
      </button>
      <EarlyClickReplay />
    </main>
  );
}

let root: Root | undefined;

/** The page as the server draws it: markup in #root, no code yet. */
function renderPage(drawnAt = "") {
  const container = document.createElement("div");
  container.id = "root";
  container.innerHTML = renderToString(<Page drawnAt={drawnAt} />);
  document.body.append(container);
  return {
    container,
    button: container.querySelector("button")!,
    select: container.querySelector("select")!,
    shown: () => container.querySelector("p")!.textContent,
  };
}

const hydrate = (container: HTMLElement, drawnAt = "") =>
  act(() => {
    root = hydrateRoot(container, <Page drawnAt={drawnAt} />, { onRecoverableError: () => {} });
  });

beforeAll(() => {
  // The inline <head> script, run once as the browser runs it before anything else.
  const script = document.createElement("script");
  script.textContent = themeScript;
  document.head.append(script);
});

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.replaceChildren();
  (document as { [earlyClickKey]?: unknown })[earlyClickKey] = undefined;
  (document as { [earlyChangeKey]?: unknown })[earlyChangeKey] = undefined;
  (document as { [appReadyKey]?: unknown })[appReadyKey] = undefined;
  (document as { [earlySubmitKey]?: unknown })[earlySubmitKey] = undefined;
});

describe("a button pressed before the code has taken the page over", () => {
  it("is held, goes no further, and is pressed once when React has the page", async () => {
    const { container, button } = renderPage();
    let reachedRoot = 0;
    container.addEventListener("click", () => reachedRoot++);
    button.click();
    expect(reachedRoot).toBe(0);
    expect((document as { [earlyClickKey]?: unknown })[earlyClickKey]).toBe(button);
    expect(button.textContent).toBe("Create New Ticket (0)");
    // It shows at once that it was pressed.
    expect(button.hasAttribute("data-pending")).toBe(true);
    expect(button.getAttribute("aria-busy")).toBe("true");

    await hydrate(container);
    expect(button.textContent).toBe("Create New Ticket (1)");
    expect(reachedRoot).toBe(1);
    expect(button.hasAttribute("data-pending")).toBe(false);
    expect(button.hasAttribute("aria-busy")).toBe(false);
  });

  it("holds only the last of several presses: the page answers one, as it would have", async () => {
    const { container, button } = renderPage();
    button.click();
    button.click();
    await hydrate(container);
    expect(button.textContent).toBe("Create New Ticket (1)");
  });

  it("holds nothing once React has the button: each press is handled once, at once", async () => {
    const { container, button } = renderPage();
    await hydrate(container);
    act(() => button.click());
    act(() => button.click());
    expect(button.textContent).toBe("Create New Ticket (2)");
    expect((document as { [earlyClickKey]?: unknown })[earlyClickKey]).toBeUndefined();
  });

  it("leaves a form's submit button to the browser, and shows it was pressed", () => {
    const container = document.createElement("div");
    container.id = "root";
    container.innerHTML = '<form method="post"><button type="submit">Send</button></form>';
    document.body.append(container);
    let submitted = 0;
    container.querySelector("form")!.addEventListener("submit", () => {
      submitted++;
    });
    // jsdom does not navigate; the browser would post the form to the server here.
    document.addEventListener("submit", (event) => event.preventDefault(), { once: true });
    const send = container.querySelector("button")!;
    send.click();
    expect(submitted).toBe(1);
    expect((document as { [earlyClickKey]?: unknown })[earlyClickKey]).toBeUndefined();
    expect(send.hasAttribute("data-pending")).toBe(true);
  });

  it("does not mark a submit the app took over: the app shows its own progress", () => {
    const container = document.createElement("div");
    container.id = "root";
    container.innerHTML = '<form method="post"><button type="submit">Send</button></form>';
    document.body.append(container);
    container.querySelector("form")!.addEventListener("submit", (event) => event.preventDefault());
    const send = container.querySelector("button")!;
    send.click();
    expect(send.hasAttribute("data-pending")).toBe(false);
  });
});

describe("a choice made in a select before the code has taken the page over", () => {
  const choose = (select: HTMLSelectElement, value: string) => {
    select.value = value;
    select.dispatchEvent(new Event("change", { bubbles: true }));
  };

  it("is kept with its value and made again once React has the select", async () => {
    const { container, select, shown } = renderPage();
    choose(select, "de");
    expect((document as { [earlyChangeKey]?: unknown })[earlyChangeKey]).toEqual([select, "de"]);
    expect(shown()).toBe("Language: en");

    await hydrate(container);
    expect(shown()).toBe("Language: de");
    expect(select.value).toBe("de");
  });

  it("is made in the new select when React could not hydrate the drawn one and drew the page again", async () => {
    const { container, select, shown } = renderPage("Drawn 10:41");
    choose(select, "de");
    // The browser's first render differs from the drawn page (a minute passed): React replaces the elements.
    await hydrate(container, "Drawn 10:42");
    expect(select.isConnected).toBe(false);
    expect(shown()).toBe("Language: de");
    expect(container.querySelector("select")!.value).toBe("de");
  });

  it("holds nothing once React has the select", async () => {
    const { container, select, shown } = renderPage();
    await hydrate(container);
    act(() => choose(select, "de"));
    expect(shown()).toBe("Language: de");
    expect((document as { [earlyChangeKey]?: unknown })[earlyChangeKey]).toBeUndefined();
  });
});

/** A drawn page with a form only the app can send (no `method`), like "Assign to…" on a ticket. */
function AssignPage() {
  const [sent, setSent] = useState(0);
  return (
    <main>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setSent((count) => count + 1);
        }}
      >
        <button type="submit">Assign ({sent})</button>
      </form>
      <EarlyClickReplay />
    </main>
  );
}

describe("a form of the app's own sent before the code has taken the page over", () => {
  it("is held, not sent by the browser, and sent once by the app when it has the page", async () => {
    const container = document.createElement("div");
    container.id = "root";
    container.innerHTML = renderToString(<AssignPage />);
    document.body.append(container);
    let reachedBrowser = 0;
    const countNative = (event: Event) => {
      if (!event.defaultPrevented) reachedBrowser++;
    };
    window.addEventListener("submit", countNative);
    const assign = container.querySelector("button")!;
    assign.click();
    expect(reachedBrowser).toBe(0);
    expect(assign.getAttribute("aria-busy")).toBe("true");

    await act(() => {
      root = hydrateRoot(container, <AssignPage />);
    });
    expect(assign.textContent).toBe("Assign (1)");
    expect(assign.hasAttribute("aria-busy")).toBe(false);
    expect(reachedBrowser).toBe(0);
    window.removeEventListener("submit", countNative);
  });

  it("leaves a form that says how it is sent to the browser", () => {
    const container = document.createElement("div");
    container.id = "root";
    container.innerHTML = '<form method="post"><button type="submit">Send</button></form>';
    document.body.append(container);
    let sent = 0;
    window.addEventListener(
      "submit",
      (event) => {
        if (!event.defaultPrevented) sent++;
        event.preventDefault();
      },
      { once: true },
    );
    container.querySelector("button")!.click();
    expect(sent).toBe(1);
  });
});

/** A drawn Rate & Feedback: five stars as radios in their labels, the fifth chosen to start with. */
function Stars() {
  const [rating, setRating] = useState(5);
  return (
    <main>
      <fieldset>
        {[1, 2, 3, 4, 5].map((star) => (
          <label key={star}>
            <input
              type="radio"
              name="rating"
              value={star}
              checked={rating === star}
              onChange={() => setRating(star)}
            />
            {star} stars
          </label>
        ))}
      </fieldset>
      <p>Rating: {rating}</p>
      <EarlyClickReplay />
    </main>
  );
}

describe("a star chosen before the code has taken the page over", () => {
  const drawStars = () => {
    const container = document.createElement("div");
    container.id = "root";
    container.innerHTML = renderToString(<Stars />);
    document.body.append(container);
    const star = (n: number) => container.querySelector<HTMLInputElement>(`input[value="${n}"]`)!;
    return { container, star, shown: () => container.querySelector("p")!.textContent };
  };

  it("stays chosen once React has the stars, and the app knows it", async () => {
    const { container, star, shown } = drawStars();
    act(() => star(4).closest("label")!.click());
    expect(star(4).checked).toBe(true);
    expect((document as { [earlyChangeKey]?: unknown })[earlyChangeKey]).toEqual([star(4), true]);

    await act(async () => {
      root = hydrateRoot(container, <Stars />, { onRecoverableError: () => {} });
    });
    expect(shown()).toBe("Rating: 4");
    expect(star(4).checked).toBe(true);
    expect(star(5).checked).toBe(false);
  });
});
