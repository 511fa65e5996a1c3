/**
 * Finds words a component shows that do not come from the message catalogs: JSX text, string
 * props a person reads or hears (aria-label, placeholder, title, alt, label), string literals in
 * value position inside `{…}`, and, anywhere in the file, a literal that reads like a sentence
 * (capitalised, with a space), such as a message built in a hook. Key-like strings passed to a
 * function (`t("signIn.title")`), comparisons (`kind === "approval"`) and class names are not text.
 */
import { execFileSync } from "node:child_process";
import ts from "typescript";

export interface Finding {
  line: number;
  text: string;
}

const TEXT_PROPS = new Set([
  "aria-label",
  "aria-description",
  "aria-roledescription",
  "aria-valuetext",
  "placeholder",
  "title",
  "alt",
  "label",
]);

/** Text with at least one letter of any script: punctuation and symbols ("·", "✓", "…") are not words. */
const HAS_LETTER = /\p{L}/u;

/** "Sign-in failed. Try again.": a capital, then words separated by spaces. */
const SENTENCE = /^[A-Z][a-z'’]*[,:]? [A-Za-z]/;

export function literalText(fileName: string, source: string, allowed: ReadonlySet<string> = new Set()): Finding[] {
  const file = ts.createSourceFile(
    fileName,
    source,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const findings: Finding[] = [];
  const seen = new Set<ts.Node>();
  const report = (node: ts.Node, raw: string) => {
    const text = raw.replace(/\s+/g, " ").trim();
    if (!text || !HAS_LETTER.test(text) || allowed.has(text) || seen.has(node)) return;
    seen.add(node);
    findings.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, text });
  };

  /** Literals an expression evaluates to (branches of ?:, right of && || ??), not its comparisons or arguments. */
  const valuesOf = (expression: ts.Expression): void => {
    if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) report(expression, expression.text);
    else if (ts.isTemplateExpression(expression))
      report(expression, [expression.head.text, ...expression.templateSpans.map((span) => span.literal.text)].join(" "));
    else if (ts.isParenthesizedExpression(expression)) valuesOf(expression.expression);
    else if (ts.isConditionalExpression(expression)) {
      valuesOf(expression.whenTrue);
      valuesOf(expression.whenFalse);
    } else if (
      ts.isBinaryExpression(expression) &&
      [ts.SyntaxKind.AmpersandAmpersandToken, ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(
        expression.operatorToken.kind,
      )
    ) {
      valuesOf(expression.right);
      if (expression.operatorToken.kind !== ts.SyntaxKind.AmpersandAmpersandToken) valuesOf(expression.left);
    }
  };

  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node)) report(node, node.text);
    else if (ts.isJsxAttribute(node) && TEXT_PROPS.has(node.name.getText(file)) && node.initializer) {
      if (ts.isStringLiteral(node.initializer)) report(node.initializer, node.initializer.text);
      else if (ts.isJsxExpression(node.initializer) && node.initializer.expression) valuesOf(node.initializer.expression);
    } else if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent)) valuesOf(node.expression);
    else if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && SENTENCE.test(node.text) && !isModuleName(node))
      report(node, node.text);
    else if (ts.isTemplateExpression(node) && SENTENCE.test(node.head.text)) report(node, node.head.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return findings.sort((a, b) => a.line - b.line);
}

/** `import … from "x"` and `"use client"` are code, not text. */
function isModuleName(node: ts.Node): boolean {
  return ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent) || ts.isExpressionStatement(node.parent);
}

/** The files that render UI: app/ and components/, but not the JSON API's routes (its messages stay English). */
export function uiSourceFiles(): string[] {
  return execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "app", "components"], { encoding: "utf8" })
    .split("\n")
    .filter((file) => /\.tsx?$/.test(file) && !file.startsWith("app/api/") && !file.endsWith("/route.ts"));
}
