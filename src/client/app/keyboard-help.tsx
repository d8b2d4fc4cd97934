import { Dialog } from "../components/ui/dialog.tsx";

interface Shortcut {
  keys: string[];
  what: string;
}

const sections: { title: string; shortcuts: Shortcut[] }[] = [
  {
    title: "Anywhere",
    shortcuts: [
      { keys: ["Ctrl", "K"], what: "Search tickets and people (⌘ K on a Mac)" },
      { keys: ["?"], what: "Show these shortcuts" },
    ],
  },
  {
    title: "Ticket lists",
    shortcuts: [
      { keys: ["j"], what: "Next ticket (↓ inside the list)" },
      { keys: ["k"], what: "Previous ticket (↑ inside the list)" },
      { keys: ["Enter"], what: "Open the selected ticket (or o)" },
    ],
  },
  {
    title: "A ticket",
    shortcuts: [
      { keys: ["a"], what: "Assign to Me (technicians, Open and unassigned tickets)" },
      { keys: ["c"], what: "Write a comment" },
      { keys: ["Ctrl", "Enter"], what: "Send the comment or note (⌘ Enter on a Mac)" },
      { keys: ["r"], what: "Mark Resolved (technicians and administrators)" },
      { keys: ["u"], what: "Back to the list (or Esc)" },
    ],
  },
];

/** `?`: every shortcut, in a dialog (Escape closes it and focus goes back where it was). */
export default function KeyboardHelp({ onClose }: { onClose: () => void }) {
  return (
    <Dialog
      title="Keyboard shortcuts"
      description="Shortcuts wait while you type in a field; Ctrl, Alt and ⌘ keys stay the browser's."
      onClose={onClose}
    >
      <div className="flex flex-col gap-5">
        {sections.map((section) => (
          <section key={section.title}>
            <h3 className="text-xs font-medium tracking-wide text-slate-500 uppercase">{section.title}</h3>
            <dl className="mt-2 divide-y divide-slate-100 text-sm">
              {section.shortcuts.map((shortcut) => (
                <div key={shortcut.what} className="flex items-center gap-4 py-2">
                  <dt className="flex w-20 shrink-0 gap-1">
                    {shortcut.keys.map((key) => (
                      <kbd
                        key={key}
                        className="min-w-6 rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 text-center font-mono text-xs text-slate-700"
                      >
                        {key}
                      </kbd>
                    ))}
                  </dt>
                  <dd className="text-slate-600">{shortcut.what}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Dialog>
  );
}
