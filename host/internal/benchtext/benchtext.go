// Package benchtext makes the mixed text the benchmarks count: English
// prose, source code, JSON, whitespace runs, numbers, Chinese, Japanese,
// Russian and emoji, in proportions like a chat application's traffic. It
// is deterministic, so every runtime counts the same bytes.
package benchtext

import (
	"math/rand/v2"
	"strings"
)

var fragments = []struct {
	weight int
	text   string
}{
	{30, "The quick brown fox jumps over the lazy dog. Tokenizers split text into pieces before merging bytes into tokens, and the count decides what fits into a context window. "},
	{10, "I'd say it's fine, but they're sure we'll need more room: don't forget the system prompt! "},
	{12, "func (e *Encoder) Count(s string) int {\n\tn := 0\n\tfor i := 0; i < len(s); {\n\t\tj := e.Next(s, i)\n\t\tn += e.count(s[i:j])\n\t\ti = j\n\t}\n\treturn n\n}\n"},
	{8, `{"model": "gpt-4o", "messages": [{"role": "user", "content": "What is 2+2?"}], "max_tokens": 256, "temperature": 0.2}` + "\n"},
	{5, "    \n\n\t\t  \r\n   value = 1234567.89 + 0x1F3A * 42 / 7;   \n\n"},
	{8, "自然语言处理是人工智能的一个重要分支，它研究如何让计算机理解和生成人类语言。"},
	{6, "今日はとても良い天気ですね。明日の会議は午後三時から始まります。"},
	{5, "Быстрая коричневая лиса прыгает через ленивую собаку, а токенизатор считает слова. "},
	{3, "Great job 🎉🚀✨ — see you at 10:30 👋🏽 (café, naïve, résumé) "},
	{3, "https://example.com/api/v1/users?id=42&sort=desc#section-3 user@example.org "},
}

// Mixed returns about size bytes of mixed text (never cut inside a
// character).
func Mixed(size int) string {
	total := 0
	for _, f := range fragments {
		total += f.weight
	}
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	b.Grow(size + 512)
	for b.Len() < size {
		k := r.IntN(total)
		for _, f := range fragments {
			if k < f.weight {
				b.WriteString(f.text)
				break
			}
			k -= f.weight
		}
	}
	return b.String()
}

// Message returns a chat message of about 200 bytes, the per-call unit.
func Message() string {
	return "Could you summarise the attached report in three bullet points? Keep it under 100 words, " +
		"mention the Q3 revenue (€4.2M, +12%) and the 自然语言 launch date, and skip the appendix, thanks! 🙏"
}
