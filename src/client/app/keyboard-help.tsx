import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { Dialog } from "#client/components/ui/dialog.tsx";

interface Shortcut {
  keys: (string | MessageDescriptor)[];
  what: MessageDescriptor;
}

// Keys with a name of their own are said in the language of the keyboard's labels (Strg on a German one).
const ctrl = msg`Ctrl`;
const enter = msg`Enter`;

const sections: { title: MessageDescriptor; shortcuts: Shortcut[] }[] = [
  {
    title: msg`Anywhere`,
    shortcuts: [
      { keys: [ctrl, "K"], what: msg`Search tickets and people (⌘ K on a Mac)` },
      { keys: ["?"], what: msg`Show these shortcuts` },
    ],
  },
  {
    title: msg`Ticket lists`,
    shortcuts: [
      { keys: ["j"], what: msg`Next ticket (↓ inside the list)` },
      { keys: ["k"], what: msg`Previous ticket (↑ inside the list)` },
      { keys: [enter], what: msg`Open the selected ticket (or o)` },
    ],
  },
  {
    title: msg`A ticket`,
    shortcuts: [
      { keys: ["a"], what: msg`Assign to Me (technicians, Open and unassigned tickets)` },
      { keys: ["c"], what: msg`Write a comment` },
      { keys: [ctrl, enter], what: msg`Send the comment or note (⌘ Enter on a Mac)` },
      { keys: ["r"], what: msg`Mark Resolved (technicians and administrators)` },
      { keys: ["u"], what: msg`Back to the list (or Esc)` },
    ],
  },
];

/** `?`: every shortcut, in a dialog (Escape closes it and focus goes back where it was). */
export default function KeyboardHelp({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useLingui();
  const text = (value: string | MessageDescriptor) => (typeof value === "string" ? value : i18n._(value));
  return (
    <Dialog
      title={t`Keyboard shortcuts`}
      description={t`Shortcuts wait while you type in a field; Ctrl, Alt and ⌘ keys stay the browser's.`}
      onClose={onClose}
    >
      <div className="flex flex-col gap-5">
        {sections.map((section) => (
          <section key={section.title.id}>
            <h3 className="text-xs font-medium tracking-wide text-slate-500 uppercase">
              {text(section.title)}
            </h3>
            <dl className="mt-2 divide-y divide-slate-100 text-sm">
              {section.shortcuts.map((shortcut) => (
                <div key={shortcut.what.id} className="flex items-center gap-4 py-2">
                  <dt className="flex w-20 shrink-0 gap-1">
                    {shortcut.keys.map((key) => (
                      <kbd
                        key={text(key)}
                        className="min-w-6 rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 text-center font-mono text-xs text-slate-700"
                      >
                        {text(key)}
                      </kbd>
                    ))}
                  </dt>
                  <dd className="text-slate-600">{text(shortcut.what)}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Dialog>
  );
}
