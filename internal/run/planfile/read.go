package planfile

import "github.com/planx-dev/planx/planparse"

// Read parses the plan at abs, rel in the repository, in format, and
// refuses one with errors: a run that starts, and one a recovery command
// reads back. rel is what git, the state and the commits record: a
// control character in it is refused before anything changes (a
// repository whose own path holds one is its own business).
func Read(abs, rel string, format planparse.Format) (*planparse.Plan, error) {
	if err := planparse.CheckPath(rel); err != nil {
		return nil, err
	}
	plan, err := planparse.ParseFile(abs, planparse.Options{Format: format})
	if err != nil {
		return nil, err
	}
	if err := plan.Err(); err != nil {
		return nil, err
	}
	return plan, nil
}
