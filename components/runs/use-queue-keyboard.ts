"use client";

/**
 * The review queue's shortcuts, on the whole page. None fires while the focus is in a text field
 * (the decision fields handle their own Enter and Ctrl+Enter), in an open dialog, or with a modifier.
 */
import { useEffect, useRef } from "react";

export interface QueueShortcutHandlers {
  move: (delta: 1 | -1) => void;
  toggleOpen: () => void;
  approve: () => void;
  decline: () => void;
  resume: () => void;
  toggleSelect: () => void;
  focusFilter: () => void;
  showHelp: () => void;
  /** Escape in a filter: back to the calls. */
  leaveFilter: () => void;
}

/**
 * The shortcut list, as the help dialog shows it and the buttons' aria-keyshortcuts name them:
 * `what` is the key of its description in the catalogs (queue.shortcuts).
 */
export const QUEUE_SHORTCUTS = [
  { keys: ["j", "↓"], what: "next" },
  { keys: ["k", "↑"], what: "previous" },
  { keys: ["Enter", "o"], what: "open" },
  { keys: ["a"], what: "approve" },
  { keys: ["d"], what: "decline" },
  { keys: ["r"], what: "resume" },
  { keys: ["Ctrl+Enter", "⌘+Enter"], what: "send" },
  { keys: ["x"], what: "select" },
  { keys: ["/"], what: "filter" },
  { keys: ["Esc"], what: "escape" },
  { keys: ["?"], what: "help" },
] as const satisfies ReadonlyArray<{ keys: readonly string[]; what: string }>;

const NOT_TEXT_INPUTS = new Set(["checkbox", "radio", "button", "submit", "reset", "range", "color", "file", "image"]);

export function isTextField(element: Element | null): boolean {
  if (!(element instanceof HTMLElement)) return false;
  if (element.isContentEditable) return true;
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  return element instanceof HTMLInputElement && !NOT_TEXT_INPUTS.has(element.type);
}

export function useQueueKeyboard(handlers: QueueShortcutHandlers) {
  const current = useRef(handlers);
  current.current = handlers;
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return;
      const target = event.target instanceof Element ? event.target : null;
      const on = current.current;
      if (event.key === "Escape" && isTextField(target) && target?.closest('[role="search"]')) {
        event.preventDefault();
        on.leaveFilter();
        return;
      }
      if (isTextField(target) || target?.closest("dialog")) return;
      // Enter keeps its own meaning on buttons, links and checkboxes; on a call row (or nowhere) it opens.
      const onRowOrPage = !target || target === document.body || target.hasAttribute("data-call-row");
      switch (event.key) {
        case "j":
        case "ArrowDown":
          on.move(1);
          break;
        case "k":
        case "ArrowUp":
          on.move(-1);
          break;
        case "Enter":
          if (!onRowOrPage) return;
          on.toggleOpen();
          break;
        case "o":
          on.toggleOpen();
          break;
        case "a":
          on.approve();
          break;
        case "d":
          on.decline();
          break;
        case "r":
          on.resume();
          break;
        case "x":
          on.toggleSelect();
          break;
        case "/":
          on.focusFilter();
          break;
        case "?":
          on.showHelp();
          break;
        default:
          return;
      }
      event.preventDefault();
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
}
