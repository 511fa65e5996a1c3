/**
 * The smallest touch target on a phone, in CSS pixels (WCAG 2.5.5, Apple's and Google's guidance):
 * the decision buttons, the Menu and Filters buttons and a call's open button are at least this
 * tall and wide below 768 px. e2e/35-phone.spec.ts measures them against this number.
 */
export const THUMB_TARGET = 44;

/** The classes that make a control a thumb target below 768 px (`11` is 44 px in Tailwind's scale). */
export const THUMB_TARGET_CLASSES = "max-md:min-h-11 max-md:min-w-11";

/** A decision button on a phone: a thumb target that shares the row with its neighbour. */
export const THUMB_DECISION_CLASSES = `${THUMB_TARGET_CLASSES} max-md:flex-1 max-md:text-base`;
