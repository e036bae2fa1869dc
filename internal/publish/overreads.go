package publish

import "path"

// readsOverwritten finds, once every description is loaded and before
// anything is written or sent, a place the run writes (a bundle, a zip, a
// site, the report) where a file that a description read is: one its $refs
// name, or its base's. Only then are all of them known. Each such file is
// claimed by the description that read it (unit.reads), and conflicts
// judges the claims as it judges the inputs, with the same errors.
func readsOverwritten(units []*unit) error {
	writes := map[string]bool{}
	for _, u := range units {
		for _, w := range []string{u.plan.BundlePath, u.plan.ZipPath, u.plan.SitePath, u.plan.ReportPath} {
			if w != "" {
				writes[leadsTo(u.ws, w)] = true
			}
		}
	}
	if len(writes) == 0 {
		return nil
	}
	found := false
	for _, u := range units {
		for _, r := range u.ws.Read() {
			for real := leadsTo(u.ws, r); ; real = path.Dir(real) {
				if writes[real] {
					u.reads, found = append(u.reads, r), true
					break
				}
				if real == "." || real == "/" {
					break
				}
			}
		}
	}
	if !found {
		return nil
	}
	return conflicts(units)
}

// configPath is the config file's path in the workspace, "" when the run
// has none or it is not in the workspace.
func configPath(u *unit) string {
	if u.cfg.ConfigFile == "" {
		return ""
	}
	rel, err := u.ws.Path(u.cfg.ConfigFile)
	if err != nil {
		return ""
	}
	return rel
}
