import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithApp } from "#client/test/render.tsx";
import { ConfirmDialog } from "./confirm-dialog.tsx";

function setup(onConfirm: () => Promise<unknown>) {
  const onClose = vi.fn();
  renderWithApp(
    <ConfirmDialog
      title="Delete this webhook?"
      description="Nothing more is sent to it."
      confirmLabel="Delete"
      successMessage="Webhook deleted"
      onConfirm={onConfirm}
      onClose={onClose}
    />,
  );
  return { onClose, user: userEvent.setup() };
}

describe("ConfirmDialog", () => {
  it("does the action once, says so and closes", async () => {
    const onConfirm = vi.fn(() => Promise.resolve());
    const { onClose, user } = setup(onConfirm);
    await user.click(screen.getByRole("button", { name: "Delete" }));
    expect(await screen.findByText("Webhook deleted")).toBeInTheDocument();
    expect(onConfirm).toHaveBeenCalledOnce();
    expect(onClose).toHaveBeenCalledOnce();
  });

  it("keeps the dialog open with the server's reason when the action is refused, and lets the person retry", async () => {
    const onConfirm = vi.fn(() => Promise.reject(new Error("Only administrators can delete webhooks.")));
    const { onClose, user } = setup(onConfirm);
    await user.click(screen.getByRole("button", { name: "Delete" }));
    expect(await screen.findByText("Only administrators can delete webhooks.")).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Delete" })).toBeEnabled();
  });

  it("cancels without acting", async () => {
    const onConfirm = vi.fn(() => Promise.resolve());
    const { onClose, user } = setup(onConfirm);
    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onConfirm).not.toHaveBeenCalled();
    expect(onClose).toHaveBeenCalledOnce();
  });
});
