package options

import (
	"errors"
	"fmt"
	"strings"
)

// Read reads the values of rows through lookup, which returns an option's
// value by its environment variable's name and where it came from (for
// warnings); the layer's lookup asks the environment, the app's
// VkLayerSettingsCreateInfoEXT and vk_layer_settings.txt in turn. Every
// row gets a value: the one given, or its default. A value a row cannot
// read keeps the default, with a warning; one it moves into range (an
// *Adjusted error) is used, with a warning. given maps the key of each
// option a source gave (read or refused) to where it came from.
func Read(rows []*Option, lookup func(env string) (value, origin string)) (v Values, given map[string]string, warnings []string) {
	given = map[string]string{}
	for _, o := range rows {
		raw, origin := lookup(o.Env)
		text := strings.TrimSpace(raw)
		if text == "" {
			o.Set(&v, o.Default)
			continue
		}
		given[o.Key] = origin
		val, err := o.Read(text)
		var adj *Adjusted
		switch {
		case err == nil:
			o.Set(&v, val)
		case errors.As(err, &adj):
			o.Set(&v, val)
			warnings = append(warnings, fmt.Sprintf("%s=%s; using %s", origin, adj.Why, val))
		case o.Kind == Bool:
			o.Set(&v, o.Default)
			warnings = append(warnings, fmt.Sprintf("%s=%q is not a boolean (use 1 or 0); keeping %v", origin, text, o.Default == "1"))
		default:
			o.Set(&v, o.Default)
			warnings = append(warnings, fmt.Sprintf("%s: %v; %s", origin, err, o.refused()))
		}
	}
	return v, given, warnings
}

// refused says what the reader does with a value it cannot read.
func (o *Option) refused() string {
	if o.Refused != "" {
		return o.Refused
	}
	return "keeping " + o.Default
}

// FileKeys maps the keys a settings file (or, with fromApp, the app's
// VkLayerSettingsCreateInfoEXT) may set to their environment variables:
// every layer row but those only the environment sets (and, from the app,
// those it may not set).
func FileKeys(fromApp bool) map[string]string {
	m := map[string]string{}
	for _, o := range Of(Layer) {
		if o.HasKey() && !(fromApp && o.NotFromApp) {
			m[o.Key] = o.Env
		}
	}
	return m
}
