import { fireEvent, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderWithApp, stubFetch } from "#client/test/render.tsx";
import { ArticleForm, type ArticleFormValues } from "./article-form.tsx";

const imageId = "ATT0M5ABCDEF12345678";
const uploaded = {
  id: imageId,
  fileName: "vpn-settings.png",
  contentType: "image/png",
  size: 3,
  isImage: true,
  url: `/api/attachments/${imageId}`,
  previewUrl: `/api/attachments/${imageId}/preview`,
};
const initial: ArticleFormValues = {
  title: "Connect to the VPN",
  body: "Open the client.\nSign in.",
  category: "Network",
  tags: [],
  status: "draft",
  visibility: "public",
};

/** The form with a stubbed server; uploads wait for `finishUploads()` so the in-between state can be seen. */
function setup(upload: { status: number; body: unknown } = { status: 201, body: uploaded }) {
  const server = stubFetch({
    "POST /api/attachments": upload,
    "POST /api/articles": { status: 201, body: { id: 7, slug: "connect-to-the-vpn-7" } },
  });
  let finishUploads = () => {};
  const uploadsMayFinish = new Promise<void>((resolve) => {
    finishUploads = resolve;
  });
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input).startsWith("/api/attachments")) await uploadsMayFinish;
    return server.fetchStub(input, init);
  });
  const onSaved = vi.fn();
  renderWithApp(<ArticleForm articleId={null} initial={initial} onSaved={onSaved} onCancel={() => {}} />);
  const text = screen.getByLabelText("Text (Markdown)") as HTMLTextAreaElement;
  const uploads = () => server.calls.filter((call) => call.url.startsWith("/api/attachments"));
  return { server, user: userEvent.setup(), text, finishUploads, uploads, onSaved };
}

/** Puts the caret right after `marker` in the box. */
function caretAfter(text: HTMLTextAreaElement, marker: string) {
  const at = text.value.indexOf(marker) + marker.length;
  text.focus();
  text.setSelectionRange(at, at);
}

describe("ArticleForm images", () => {
  it("uploads a picked image and puts its Markdown where the cursor was; saving waits for it", async () => {
    const { user, text, finishUploads, uploads, server, onSaved } = setup();
    caretAfter(text, "Open the client.\n");
    await user.upload(
      screen.getByLabelText("Insert image"),
      new File([new Uint8Array([1, 2, 3])], "vpn-settings.png", { type: "image/png" }),
    );

    // While it uploads, a placeholder holds its place and the article cannot be saved.
    expect(text).toHaveValue("Open the client.\n![Uploading vpn-settings…]()Sign in.");
    expect(screen.getByRole("status")).toHaveTextContent("Uploading an image…");
    expect(screen.getByRole("button", { name: "Save article" })).toBeDisabled();

    // The author types on; when the upload finishes, their cursor stays where they were.
    caretAfter(text, "Sign");
    finishUploads();
    await vi.waitFor(() =>
      expect(text).toHaveValue(
        `Open the client.\n![vpn-settings](/api/attachments/${imageId}/preview)Sign in.`,
      ),
    );
    expect(text.selectionStart).toBe(text.value.indexOf("Sign") + "Sign".length);
    expect(uploads().map((call) => call.url)).toEqual(["/api/attachments?fileName=vpn-settings.png"]);
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Save article" }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(server.calls.find((call) => call.url === "/api/articles")?.body).toMatchObject({
      body: `Open the client.\n![vpn-settings](/api/attachments/${imageId}/preview)Sign in.`,
    });
  });

  it("uploads a pasted screenshot under a name that says when, at the cursor", async () => {
    const { text, finishUploads, uploads } = setup();
    caretAfter(text, "Sign in.");
    const screenshot = new File([new Uint8Array([1, 2, 3])], "image.png", { type: "image/png" });
    fireEvent.paste(text, { clipboardData: { files: [screenshot], types: ["Files"] } });
    finishUploads();
    await vi.waitFor(() =>
      expect(text.value).toMatch(
        new RegExp(
          `^Open the client\\.\\nSign in\\.!\\[screenshot-[\\d-]+\\]\\(/api/attachments/${imageId}/preview\\)$`,
        ),
      ),
    );
    expect(uploads()[0]?.url).toMatch(/^\/api\/attachments\?fileName=screenshot-[\d-]+\.png$/);
  });

  it("refuses a file that is not a PNG, JPEG, GIF or WebP image without uploading it", async () => {
    const { text, uploads } = setup();
    // The picker offers images only; a drop (or a paste) can still bring anything.
    expect(screen.getByLabelText("Insert image")).toHaveAttribute("accept", ".png,.jpg,.jpeg,.gif,.webp");
    const pdf = new File(["%PDF-1.7"], "manual.pdf", { type: "application/pdf" });
    fireEvent.drop(text, { dataTransfer: { files: [pdf], types: ["Files"] } });
    expect(screen.getByRole("alert")).toHaveTextContent(
      "manual.pdf is not an image: an article can show PNG, JPEG, GIF or WebP images.",
    );
    expect(uploads()).toEqual([]);
    expect(text).toHaveValue(initial.body);
  });

  it("takes the placeholder out and says why when the server refuses the image", async () => {
    const { user, text, finishUploads } = setup({
      status: 400,
      body: { code: "validation_failed", message: "The content of cat.png does not match its name." },
    });
    caretAfter(text, "Sign in.");
    await user.upload(
      screen.getByLabelText("Insert image"),
      new File(["<html>"], "cat.png", { type: "image/png" }),
    );
    expect(text).toHaveValue("Open the client.\nSign in.![Uploading cat…]()");
    finishUploads();
    expect(await screen.findByText("The content of cat.png does not match its name.")).toBeInTheDocument();
    expect(text).toHaveValue(initial.body);
    expect(screen.getByRole("button", { name: "Save article" })).toBeEnabled();
  });
});
