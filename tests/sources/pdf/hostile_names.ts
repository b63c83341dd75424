/**
 * Names that try to reach outside PDF_ROOT, shared by the name-rule tests and the MCP confinement suite.
 * `secret` is the name of the PDF planted outside the root by those suites.
 */
export const HOSTILE_NAMES: readonly string[] = [
  // parent references and relative paths
  "..",
  "...",
  "../secret",
  "../../secret",
  "..\\secret",
  "..\\..\\windows\\win.ini",
  "./secret",
  "files/../../secret",
  "sub/../../secret",
  "a..b",
  "..pdf",
  "../files2/secret",
  "..;/secret",
  // absolute paths, UNC paths, URLs, home
  "/etc/passwd",
  "/",
  "\\",
  "/tmp/secret",
  "\\\\server\\share\\secret",
  "//server/share/secret",
  "file:///etc/passwd",
  "~/secret",
  "~/../secret",
  // Windows drive letters and alternate data streams
  "C:secret",
  "C:\\secret",
  "c:/secret",
  "secret:stream",
  "secret::$DATA",
  // percent-encoding, single and double
  "%2e%2e%2fsecret",
  "%2E%2E/secret",
  "..%2fsecret",
  "..%5csecret",
  "%2fetc%2fpasswd",
  "%252e%252e%252fsecret",
  "secret%00",
  "%c0%ae%c0%ae/secret",
  // NUL and control characters
  "secret\u0000",
  "secret\u0000.txt",
  "sec\nret",
  "secret\r",
  "\t",
  "secret\u007f",
  // Unicode look-alikes of separators and dots
  "．．／secret",
  "..∕secret",
  "..⁄secret",
  "..＼secret",
  "﹨secret",
  // Windows device names
  "CON",
  "nul",
  "com1",
  "LPT1.txt",
  "aux.pdf",
];

/** Ordinary names that must stay accepted (real file names contain spaces, accents, dots, brackets). */
export const ORDINARY_NAMES: readonly string[] = [
  "paper",
  "Smith et al. 2020",
  "résumé",
  "論文",
  "v1.2-final",
  "report (draft)",
  "50% growth",
  "~tilde",
  "contest",
  ".hidden",
];
