// Package agent turns a plan task into a prompt and an AI coding agent's
// command line. Presets know how each common CLI (claude, codex, aider,
// gemini, opencode) takes a prompt non-interactively; any other command gets
// the prompt on stdin and its path in PLANX_PROMPT_FILE. Whatever the agent
// says, planx decides from git and its gates whether the task was done.
package agent
