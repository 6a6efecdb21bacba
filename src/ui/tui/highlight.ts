import type { Span } from "./spans.js";
import type { Style, Theme } from "./theme.js";

const KEYWORDS = new Set(
  (
    "async await break case catch class const continue def default del do elif else enum except export extends false " +
    "finally fn for from func function go if impl import in interface is lambda let match mod new nil none not null " +
    "or package pass pub raise return self static struct super switch this throw true try type typeof undefined use " +
    "var void while with yield local then end echo fi esac done True False None"
  ).split(" "),
);

const HASH_COMMENT_LANGUAGES = new Set([
  "python",
  "py",
  "sh",
  "bash",
  "zsh",
  "shell",
  "console",
  "yaml",
  "yml",
  "ruby",
  "rb",
  "toml",
  "perl",
  "r",
  "make",
  "makefile",
  "dockerfile",
  "conf",
  "ini",
]);

/** Comment, string, number, word, or any other single character: the tokens of one line. */
const SLASH_TOKENS =
  /(\/\/.*$|\/\*.*?(?:\*\/|$))|("(?:\\.|[^"\\])*"?|'(?:\\.|[^'\\])*'?|`(?:\\.|[^`\\])*`?)|(\b\d[\d_.]*(?:e[+-]?\d+)?\b|\b0x[\da-f]+\b)|([A-Za-z_$][\w$]*)|([\s\S])/gi;
const HASH_TOKENS =
  /(#.*$)|("(?:\\.|[^"\\])*"?|'(?:\\.|[^'\\])*'?|`(?:\\.|[^`\\])*`?)|(\b\d[\d_.]*(?:e[+-]?\d+)?\b|\b0x[\da-f]+\b)|([A-Za-z_$][\w$]*)|([\s\S])/gi;

/**
 * Simple, language-agnostic colouring of one line of code: comments, strings, numbers and
 * common keywords. Good enough to make code blocks readable; not a parser.
 */
export function highlightLine(line: string, language: string, theme: Theme): Span[] {
  const pattern = HASH_COMMENT_LANGUAGES.has(language.toLowerCase()) ? HASH_TOKENS : SLASH_TOKENS;
  const spans: Span[] = [];
  let plainRun = "";
  const push = (text: string, style: Style) => {
    if (plainRun) spans.push({ text: plainRun, style: theme.code });
    plainRun = "";
    spans.push({ text, style });
  };
  for (const match of line.matchAll(new RegExp(pattern.source, pattern.flags))) {
    const [token, comment, string, number, word] = match;
    if (comment) push(comment, theme.comment);
    else if (string) push(string, theme.string);
    else if (number) push(number, theme.number);
    else if (word && KEYWORDS.has(word)) push(word, theme.keyword);
    else plainRun += token;
  }
  if (plainRun) spans.push({ text: plainRun, style: theme.code });
  return spans;
}
