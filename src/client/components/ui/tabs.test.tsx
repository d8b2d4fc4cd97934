import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { Tabs } from "./tabs.tsx";

const tabs = [
  { value: "visible", label: "All Tickets" },
  { value: "mine", label: "My Tickets" },
  { value: "unassigned", label: "Unassigned" },
] as const;

function Harness() {
  const [value, setValue] = useState<(typeof tabs)[number]["value"]>("visible");
  return <Tabs label="Filter tickets" idPrefix="t" tabs={tabs} value={value} onChange={setValue} />;
}

describe("Tabs", () => {
  it("selects a tab by click and moves with the arrow keys", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(screen.getByRole("tablist", { name: "Filter tickets" })).toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "All Tickets" })).toHaveAttribute("aria-selected", "true");

    await user.click(screen.getByRole("tab", { name: "My Tickets" }));
    expect(screen.getByRole("tab", { name: "My Tickets" })).toHaveAttribute("aria-selected", "true");

    await user.keyboard("{ArrowRight}");
    expect(screen.getByRole("tab", { name: "Unassigned" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tab", { name: "Unassigned" })).toHaveFocus();

    await user.keyboard("{ArrowRight}");
    expect(screen.getByRole("tab", { name: "All Tickets" })).toHaveAttribute("aria-selected", "true");
  });
});
