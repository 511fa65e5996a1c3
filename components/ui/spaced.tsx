import { Children, type ReactNode } from "react";

/**
 * Its children with a space between each (empty ones left out). In a flex box with a gap the space
 * takes no room, yet the texts stay separate words wherever they are read as text — copied
 * (innerText), read aloud by a screen reader, or as textContent: "Approval 1 of 2 approvals", not
 * "Approval1 of 2 approvals".
 */
export function Spaced({ children }: { children: ReactNode }) {
  return <>{Children.toArray(children).flatMap((child, index) => (index === 0 ? [child] : [" ", child]))}</>;
}
