package agent

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/planx-dev/planx/planparse"
)

const kiroRequirements = "# Requirements Document\r\n" + `
## Introduction

A greeting tool.

## Requirements

### Requirement 1

**User Story:** As a user, I want a greeting, so that I feel welcome.

#### Acceptance Criteria

1. WHEN the tool runs THEN the system SHALL print "Hello"
2. WHEN a name is given THEN the system SHALL greet it
   - by its first name only
3. IF the name is empty THEN the system SHALL print "Hello, World"

` + "```text\n### Requirement 9\n1. fenced, not a criterion\n```" + `

### Requirement 2: Farewell

**User Story:** As a user, I want a farewell.

#### Acceptance Criteria

1. WHEN the tool exits, THE system SHALL print "Bye"

## Glossary

1. not a criterion of requirement 2
`

func TestParseRequirements(t *testing.T) {
	got := ParseRequirements(kiroRequirements)
	want := []Requirement{
		{Num: "1", Story: "As a user, I want a greeting, so that I feel welcome.", Criteria: []Criterion{
			{"1", `WHEN the tool runs THEN the system SHALL print "Hello"`},
			{"2", "WHEN a name is given THEN the system SHALL greet it\n   - by its first name only"},
			{"3", `IF the name is empty THEN the system SHALL print "Hello, World"`},
		}},
		{Num: "2", Title: "Farewell", Story: "As a user, I want a farewell.", Criteria: []Criterion{
			{"1", `WHEN the tool exits, THE system SHALL print "Bye"`},
		}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ParseRequirements:\n got %#v\nwant %#v", got, want)
	}
}

func TestParseRequirementsLocalisedHeadings(t *testing.T) {
	for _, md := range []string{
		"### 要件 1: 挨拶\n\n**ユーザーストーリー:** 利用者として\n\n1. 挨拶する\n",
		"### Requisito 1 - Saludo\n\n1. saluda\n",
		"## Requirement 1.\n\n1. greets\n",
	} {
		got := ParseRequirements(md)
		if len(got) != 1 || got[0].Num != "1" || len(got[0].Criteria) != 1 {
			t.Errorf("ParseRequirements(%q) = %#v, want requirement 1 with one criterion", md, got)
		}
	}
}

func TestCitations(t *testing.T) {
	for _, tc := range []struct {
		name   string
		format planparse.Format
		task   planparse.Task
		want   []string
	}{
		{"kiro trailer", planparse.FormatKiro, planparse.Task{Body: "- [ ] 1.1 Greet\n  - detail\n  - _Requirements: 1.2, 2.1_\n"}, []string{"1.2", "2.1"}},
		{"kiro bare integers and repeats", planparse.FormatKiro, planparse.Task{Body: "- [ ] 2. X\n  _Requirements: 6_\n  **Validates: Requirements 6, 1.1.**\n"}, []string{"6", "1.1"}},
		{"kiro localised", planparse.FormatKiro, planparse.Task{Body: "- [ ] 1. X\n  - _需求: 1.1、2.1_\n"}, []string{"1.1", "2.1"}},
		{"kiro list after the word", planparse.FormatKiro, planparse.Task{Body: "- [ ] 3. Write the requirements:\n1. parse\n_Requirements: 4.2_\n"}, []string{"4.2"}},
		{"kiro none", planparse.FormatKiro, planparse.Task{Body: "- [ ] 1. Requirements gathering\n"}, nil},
		{"speckit", planparse.FormatSpecKit, planparse.Task{Labels: []string{"P", "US1"}, Body: "- [ ] T003 [P] [US1] Greet per FR-002 and SC-001 in greet.sh (FR-002)\n"}, []string{"US1", "FR-002", "SC-001"}},
		{"native cites nothing", planparse.FormatNative, planparse.Task{Body: "FR-001 _Requirements: 1.1_"}, nil},
	} {
		if got := Citations(tc.format, &tc.task); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: Citations = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestQuoteKiro(t *testing.T) {
	got := Quote(planparse.FormatKiro, kiroRequirements, []string{"1.2", "2", "1.9", "7.1"})
	want := []Cited{
		{Ref: "1.2", Text: "Requirement 1\nUser story: As a user, I want a greeting, so that I feel welcome.\n2. WHEN a name is given THEN the system SHALL greet it\n   - by its first name only"},
		{Ref: "2", Text: "Requirement 2: Farewell\nUser story: As a user, I want a farewell.\n1. WHEN the tool exits, THE system SHALL print \"Bye\""},
		{Ref: "1.9"},
		{Ref: "7.1"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Quote = %#v\nwant %#v", got, want)
	}
}

const specKitSpec = `# Feature Specification: Greeting

## User Scenarios & Testing

### User Story 1 - Greet by name (Priority: P1)

A user runs the tool with a name
and is greeted.

**Acceptance Scenarios**:

1. **Given** a name, **When** run, **Then** greeted

## Requirements

### Functional Requirements

- **FR-001**: System MUST print a greeting.
- **FR-002**: System MUST greet by name,
  trimming spaces.
- **FR-003**: System MUST NOT print FR-002 twice.

### Success Criteria

- **SC-001**: Greets in under 10 ms.
`

func TestQuoteSpecKit(t *testing.T) {
	got := Quote(planparse.FormatSpecKit, specKitSpec, []string{"US1", "FR-002", "SC-001", "FR-009", "US4"})
	want := []Cited{
		{Ref: "US1", Text: "User Story 1 - Greet by name (Priority: P1)\nA user runs the tool with a name\nand is greeted."},
		{Ref: "FR-002", Text: "- **FR-002**: System MUST greet by name,\ntrimming spaces."},
		{Ref: "SC-001", Text: "- **SC-001**: Greets in under 10 ms."},
		{Ref: "FR-009"},
		{Ref: "US4"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Quote = %#v\nwant %#v", got, want)
	}
}

func TestQuoteIsCapped(t *testing.T) {
	long := "### Requirement 1\n\n1. " + strings.Repeat("é", 3000) + "\n2. " + strings.Repeat("x", 3000) + "\n"
	got := Quote(planparse.FormatKiro, long, []string{"1.1", "1.2", "1"})
	total := 0
	for _, c := range got {
		total += len(c.Text)
		if !utf8.ValidString(c.Text) || !c.Cut {
			t.Errorf("quote of %s: valid UTF-8 %v, cut %v; want both", c.Ref, utf8.ValidString(c.Text), c.Cut)
		}
	}
	if total > maxQuoted || len(got) != 3 || !strings.HasSuffix(got[0].Text, "[…]") || got[2].Text != "" {
		t.Fatalf("%d bytes quoted (max %d): %#v", total, maxQuoted, got)
	}
}

func TestPromptNamesSpecAndQuotes(t *testing.T) {
	task := &planparse.Task{ID: "T001", Title: "Greet", Body: "- [ ] 1. Greet"}
	p := Prompt(task, Context{PlanPath: ".kiro/specs/g/tasks.md", Spec: Spec{
		Files:  []string{".kiro/specs/g/requirements.md", ".kiro/specs/g/design.md"},
		Source: ".kiro/specs/g/requirements.md",
		Cited: []Cited{{Ref: "1.1", Text: "Requirement 1\n1. WHEN run THEN SHALL greet"}, {Ref: "4.2"},
			{Ref: "1.2", Text: "Requirement 1\n2. x […]", Cut: true}, {Ref: "2", Cut: true}},
	}})
	for _, want := range []string{
		"## The feature's spec\n",
		"- .kiro/specs/g/requirements.md\n- .kiro/specs/g/design.md\n",
		"## Requirements this task cites (from .kiro/specs/g/requirements.md)",
		"1.1:\n\n```\nRequirement 1\n1. WHEN run THEN SHALL greet\n```",
		"- 4.2: not found in .kiro/specs/g/requirements.md",
		"1.2 (shortened; the full text is in .kiro/specs/g/requirements.md):",
		"- 2: left out to keep this prompt short",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
	if p2 := Prompt(task, Context{PlanPath: "plan.md"}); strings.Contains(p2, "## The feature's spec") || strings.Contains(p2, "cites") {
		t.Errorf("a prompt without a spec mentions one:\n%s", p2)
	}
}
