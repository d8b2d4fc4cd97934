import { I18nProvider } from "@lingui/react";
import { act, render as renderNode, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { activateLocale, i18n } from "#client/lib/i18n.ts";
import type { TicketSla } from "#shared/service-levels/ticket-sla.ts";
import { slaTickMs, TicketDueBadge, TicketSlaPanel } from "./ticket-sla.tsx";

// The browser's clock is set far from the server's on purpose: the countdown must follow the server.
beforeEach(() => {
  vi.useFakeTimers({
    toFake: ["setInterval", "clearInterval", "setTimeout", "clearTimeout", "Date", "performance"],
  });
  vi.setSystemTime(new Date("2024-06-01T00:00:00Z"));
});
afterEach(() => vi.useRealTimers());

const wrapper = ({ children }: { children: ReactNode }) => (
  <I18nProvider i18n={i18n}>{children}</I18nProvider>
);
const render = (ui: ReactNode) => renderNode(ui, { wrapper });

const sla = (overrides: Partial<TicketSla> = {}): TicketSla => ({
  firstResponse: { dueAt: "2030-01-07T11:00:00.000Z", metAt: null, state: "running" },
  resolution: { dueAt: "2030-01-08T10:00:00.000Z", metAt: null, state: "running" },
  serverNow: "2030-01-07T08:46:00.000Z",
  ...overrides,
});

describe("TicketSlaPanel", () => {
  it("shows the time left from the server's now and ticks down every 30 seconds", () => {
    render(<TicketSlaPanel sla={sla()} />);
    expect(screen.getByText("2h 14m left")).toBeInTheDocument();
    expect(screen.getByText("1d 1h left")).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(slaTickMs * 2));
    expect(screen.getByText("2h 13m left")).toBeInTheDocument();
  });

  it("turns into Overdue by … once the due time has passed in the browser's elapsed time", () => {
    render(<TicketSlaPanel sla={sla({ serverNow: "2030-01-07T10:59:00.000Z" })} />);
    expect(screen.getByText("1m left")).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(36 * 60_000));
    expect(screen.getByText("Overdue by 35m")).toBeInTheDocument();
  });

  it("says Met, Met late or No target for targets that no longer run", () => {
    render(
      <TicketSlaPanel
        sla={sla({
          firstResponse: {
            dueAt: "2030-01-07T11:00:00.000Z",
            metAt: "2030-01-07T11:30:00.000Z",
            state: "met_late",
          },
          resolution: { dueAt: null, metAt: null, state: "none" },
        })}
      />,
    );
    expect(screen.getByText("Met late")).toBeInTheDocument();
    expect(screen.getByText("No target")).toBeInTheDocument();
  });

  it("counts down in German too", async () => {
    await activateLocale("de");
    try {
      render(<TicketSlaPanel sla={sla()} />);
      expect(screen.getByText("noch 2 Std. 14 Min.")).toBeInTheDocument();
      expect(screen.getByText("noch 1 T. 1 Std.")).toBeInTheDocument();
    } finally {
      await activateLocale("en");
    }
  });
});

describe("TicketDueBadge", () => {
  it("marks the more urgent target and nothing when all is well or hidden", () => {
    const { rerender } = render(
      <TicketDueBadge sla={sla({ resolution: { dueAt: null, metAt: null, state: "overdue" } })} />,
    );
    expect(screen.getByText("Overdue")).toBeInTheDocument();
    rerender(
      <TicketDueBadge sla={sla({ firstResponse: { dueAt: null, metAt: null, state: "due_soon" } })} />,
    );
    expect(screen.getByText("Due soon")).toBeInTheDocument();
    rerender(<TicketDueBadge sla={sla()} />);
    expect(screen.queryByText(/Overdue|Due soon/)).toBeNull();
    rerender(<TicketDueBadge sla={null} />);
    expect(screen.queryByText(/Overdue|Due soon/)).toBeNull();
  });
});
