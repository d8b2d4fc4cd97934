import { type DragEvent, type ReactNode, useState } from "react";
import { cn } from "./cn.ts";

const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes("Files");

/**
 * Files dropped anywhere on the wrapped area go to `onFiles`; the area lights up while dragging. Dropping is
 * a shortcut: the form must offer a button that does the same by keyboard.
 */
export function FileDropZone({
  onFiles,
  children,
  className,
}: {
  onFiles: (files: File[]) => void;
  children: ReactNode;
  className?: string;
}) {
  const [isDragging, setIsDragging] = useState(false);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping is a shortcut; the form's button does the same by keyboard.
    <div
      className={cn(
        "rounded-lg transition-shadow",
        isDragging && "ring-2 ring-indigo-400 ring-offset-4",
        className,
      )}
      onDragOver={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        setIsDragging(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setIsDragging(false);
      }}
      onDrop={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        setIsDragging(false);
        onFiles([...event.dataTransfer.files]);
      }}
    >
      {children}
    </div>
  );
}
