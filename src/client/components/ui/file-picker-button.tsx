import type { LucideIcon } from "lucide-react";
import { useRef } from "react";
import { Button } from "./button.tsx";

/**
 * A button that opens the file picker and hands over what was chosen. The input itself stays hidden:
 * Chromium cuts a visually hidden file input's text with an ellipsis. It carries the button's label, so
 * tests and assistive technology find it by the same name.
 */
export function FilePickerButton({
  label,
  icon: Icon,
  accept,
  onFiles,
}: {
  label: string;
  icon: LucideIcon;
  accept: string;
  onFiles: (files: File[]) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => input.current?.click()}>
        <Icon aria-hidden="true" className="size-4" />
        {label}
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        aria-label={label}
        accept={accept}
        onChange={(event) => {
          if (event.target.files) onFiles(Array.from(event.target.files));
          // The same file chosen again is a new choice.
          event.target.value = "";
        }}
      />
    </>
  );
}
