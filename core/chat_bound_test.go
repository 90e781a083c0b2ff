package core

import (
	"testing"
)

// TestChat_UpperBoundCoversTheAPI: on every request whose billed count was
// published, the upper bound is at least what the API billed.
func TestChat_UpperBoundCoversTheAPI(t *testing.T) {
	for _, v := range loadChatVectors(t) {
		var req ChatRequest
		if err := req.UnmarshalJSON(v.Request); err != nil {
			t.Fatal(err)
		}
		got, err := CountChat(encodingForTest(t, v.model()), req, ChatRulesFor(v.model()))
		if err != nil {
			t.Fatal(err)
		}
		if got.UpperBound < v.PromptTokens {
			t.Errorf("%s (%s): upper bound %d below the %d billed (total %d, exact %v)", v.Name, v.model(), got.UpperBound, v.PromptTokens, got.Total, got.Exact)
		}
	}
}
