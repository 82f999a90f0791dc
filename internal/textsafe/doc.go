// Package textsafe makes text from plans, configuration and command output
// safe to print on a terminal: control characters, ANSI escape sequences,
// carriage returns and Unicode bidi and invisible format characters are
// shown as visible escapes (\x1b, \r, \u202e) instead of being interpreted,
// so a reviewer sees the bytes that will run, not what they draw. It also
// lays such text out: Shorten fits a title on one line of a given width
// (a commit subject, a table cell) and Indent sets a block in.
package textsafe
