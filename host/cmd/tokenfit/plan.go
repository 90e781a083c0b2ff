package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/tokenfit/tokenfit/core"
)

// Environment variables and the config file that set plan's budget.
const (
	EnvTokenBudget        = "TOKENFIT_TOKEN_BUDGET"
	EnvTokenBudgetDynamic = "TOKENFIT_TOKEN_BUDGET_DYNAMIC"
	EnvConfig             = "TOKENFIT_CONFIG"
)

// config is the config file: {"token_budget": {"default": N,
// "dynamic_context": N}}. Absent fields leave the defaults; an empty file
// (or one of white space) sets nothing, like {}. Files over 1 MiB are
// refused.
type config struct {
	TokenBudget struct {
		Default        *int `json:"default"`
		DynamicContext *int `json:"dynamic_context"`
	} `json:"token_budget"`
}

// configPath is $TOKENFIT_CONFIG, else tokenfit/config.json in the user
// config directory.
func configPath() (string, error) {
	if p := os.Getenv(EnvConfig); p != "" {
		return p, nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "tokenfit", "config.json"), nil
}

// tokenBudget resolves plan's budget: flag > environment > config file >
// default.
func tokenBudget(flagValue int, flagSet, dynamic bool) (int, error) {
	if flagSet {
		if flagValue < 0 {
			return 0, usagef("--token-budget must not be negative")
		}
		return flagValue, nil
	}
	env, def := EnvTokenBudget, core.DefaultTokenBudget
	if dynamic {
		env, def = EnvTokenBudgetDynamic, core.DynamicContextTokenBudget
	}
	if s := os.Getenv(env); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%s=%q: want a whole number of tokens", env, s)
		}
		return n, nil
	}
	path, err := configPath()
	if err == nil {
		b, err := readFile(path, maxConfig)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return 0, err
		case len(bytes.TrimSpace(b)) == 0:
			// An empty file sets nothing, like {}.
		default:
			var cfg config
			if err := json.Unmarshal(b, &cfg); err != nil {
				return 0, fmt.Errorf("%s: %v", path, err)
			}
			v, field := cfg.TokenBudget.Default, "token_budget.default"
			if dynamic {
				v, field = cfg.TokenBudget.DynamicContext, "token_budget.dynamic_context"
			}
			if v != nil {
				if *v < 0 {
					return 0, fmt.Errorf("%s: %s must not be negative", path, field)
				}
				return *v, nil
			}
		}
	}
	return def, nil
}

func planCmd(fs *flag.FlagSet) func(*cli, []string) error {
	budget := fs.Int("token-budget", 0, fmt.Sprintf("token budget (overrides the request, $%s and the config file; default %d)", EnvTokenBudget, core.DefaultTokenBudget))
	dynamic := fs.Bool("dynamic", false, fmt.Sprintf("use the dynamic-context budget ($%s, token_budget.dynamic_context; default %d)", EnvTokenBudgetDynamic, core.DynamicContextTokenBudget))
	return func(c *cli, args []string) error {
		flagSet := false
		fs.Visit(func(f *flag.Flag) { flagSet = flagSet || f.Name == "token-budget" })
		in, err := c.oneInput(args)
		if err != nil {
			return err
		}
		req, err := withBudget(in, *budget, flagSet, *dynamic)
		if err != nil {
			return err
		}
		return c.print(c.do("planInjection", req, nil))
	}
}

// withBudget sets the request's "budget": the flag's when set, else the
// request's own, else the environment's, the config file's or the default.
// A request that is not a JSON object goes through unchanged, for core to
// say what is wrong with it.
func withBudget(in []byte, flagValue int, flagSet, dynamic bool) ([]byte, error) {
	var req map[string]json.RawMessage
	if err := json.Unmarshal(in, &req); err != nil || req == nil {
		return in, nil
	}
	if _, has := req["budget"]; has && !flagSet {
		return in, nil
	}
	n, err := tokenBudget(flagValue, flagSet, dynamic)
	if err != nil {
		return nil, err
	}
	req["budget"] = json.RawMessage(strconv.Itoa(n))
	return json.Marshal(req)
}
