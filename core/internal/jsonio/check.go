package jsonio

import "strconv"

// SyntaxError is JSON text that is not valid: Msg and Offset are what
// encoding/json's SyntaxError says for the same text, so that a request's
// error message does not depend on which decoder read it.
type SyntaxError struct {
	Msg    string
	Offset int64 // bytes read before the error: the bad byte's index + 1
}

func (e *SyntaxError) Error() string { return e.Msg }

// MaxDepth is how deeply arrays and objects may nest, as in encoding/json.
const MaxDepth = 10000

// The checker's states: what the next byte may be.
const (
	stValue      = iota // any value
	stValueOrEnd        // a value or ] (just after [)
	stKeyOrEnd          // a key or } (just after {)
	stKey               // a key (after a comma in an object)
	stAfter             // after a value: , : } ] or space
	stString            // in a string
	stEscape            // after \ in a string
	stHex1              // after \u, \uX, \uXX, \uXXX
	stHex2
	stHex3
	stHex4
	stMinus     // after -
	stZero      // after a leading 0 (or -0)
	stDigits    // in the integer digits
	stDot       // after the decimal point
	stFraction  // in the fraction digits
	stExp       // after e or E
	stExpSign   // after the exponent's sign
	stExpDigits // in the exponent digits
	stLiteral   // in true, false or null
	stTop       // after the top-level value
)

// Check reports whether b is one JSON value with white space around it, and
// if not returns a *SyntaxError. O(len(b)), no allocation for valid text
// nested less than 64 deep.
func Check(b []byte) error {
	var stack [64]byte
	c := checker{stack: stack[:0]}
	for i := 0; i < len(b); i++ {
		// The bytes inside a string that neither end it nor escape, and
		// space between tokens, change no state: skipped without a step
		// (a tokenizer.json is megabytes of them).
		switch c.state {
		case stString:
			for i < len(b) && b[i] >= 0x20 && b[i] != '"' && b[i] != '\\' {
				i++
			}
		case stValue, stValueOrEnd, stKeyOrEnd, stKey, stAfter, stTop:
			for i < len(b) && isSpace(b[i]) {
				i++
			}
		}
		if i == len(b) {
			break
		}
		if !c.step(b[i]) {
			return &SyntaxError{Msg: "invalid character " + quoteChar(b[i]) + " " + c.msg, Offset: int64(i + 1)}
		}
	}
	if c.state == stTop {
		return nil
	}
	if !c.step(' ') { // a number or literal cut short reports the end as a space
		return &SyntaxError{Msg: "invalid character ' ' " + c.msg, Offset: int64(len(b))}
	}
	if c.state == stTop {
		return nil
	}
	return &SyntaxError{Msg: "unexpected end of JSON input", Offset: int64(len(b))}
}

type checker struct {
	state   int
	stack   []byte // 'k': in an object before a key's colon, 'v': after it, 'a': in an array
	literal string // the rest of a true, false or null being read
	word    string // that literal's whole word
	msg     string // what was expected, when step fails
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func (c *checker) fail(msg string) bool {
	c.msg = msg
	return false
}

func (c *checker) push(kind byte) bool {
	if len(c.stack) >= MaxDepth {
		return c.fail("exceeded max depth")
	}
	c.stack = append(c.stack, kind)
	return true
}

// endValue moves past a finished value.
func (c *checker) endValue() {
	if len(c.stack) == 0 {
		c.state = stTop
	} else {
		c.state = stAfter
	}
}

func (c *checker) step(b byte) bool {
	switch c.state {
	case stValue, stValueOrEnd:
		if isSpace(b) {
			return true
		}
		if c.state == stValueOrEnd && b == ']' {
			c.stack = c.stack[:len(c.stack)-1]
			c.endValue()
			return true
		}
		switch {
		case b == '{':
			c.state = stKeyOrEnd
			return c.push('k')
		case b == '[':
			c.state = stValueOrEnd
			return c.push('a')
		case b == '"':
			c.state = stString
		case b == '-':
			c.state = stMinus
		case b == '0':
			c.state = stZero
		case '1' <= b && b <= '9':
			c.state = stDigits
		case b == 't':
			c.state, c.word, c.literal = stLiteral, "true", "rue"
		case b == 'f':
			c.state, c.word, c.literal = stLiteral, "false", "alse"
		case b == 'n':
			c.state, c.word, c.literal = stLiteral, "null", "ull"
		default:
			return c.fail("looking for beginning of value")
		}
		return true
	case stKeyOrEnd, stKey:
		switch {
		case isSpace(b):
		case b == '"':
			c.state = stString
		case b == '}' && c.state == stKeyOrEnd:
			c.stack = c.stack[:len(c.stack)-1]
			c.endValue()
		default:
			return c.fail("looking for beginning of object key string")
		}
		return true
	case stAfter:
		if isSpace(b) {
			return true
		}
		top := &c.stack[len(c.stack)-1]
		switch *top {
		case 'k':
			if b != ':' {
				return c.fail("after object key")
			}
			*top, c.state = 'v', stValue
		case 'v':
			switch b {
			case ',':
				*top, c.state = 'k', stKey
			case '}':
				c.stack = c.stack[:len(c.stack)-1]
				c.endValue()
			default:
				return c.fail("after object key:value pair")
			}
		default:
			switch b {
			case ',':
				c.state = stValue
			case ']':
				c.stack = c.stack[:len(c.stack)-1]
				c.endValue()
			default:
				return c.fail("after array element")
			}
		}
		return true
	case stString:
		switch {
		case b == '"':
			c.endValue()
		case b == '\\':
			c.state = stEscape
		case b < 0x20:
			return c.fail("in string literal")
		}
		return true
	case stEscape:
		switch b {
		case 'b', 'f', 'n', 'r', 't', '\\', '/', '"':
			c.state = stString
		case 'u':
			c.state = stHex1
		default:
			return c.fail("in string escape code")
		}
		return true
	case stHex1, stHex2, stHex3, stHex4:
		if !isHex(b) {
			return c.fail("in \\u hexadecimal character escape")
		}
		if c.state++; c.state > stHex4 {
			c.state = stString
		}
		return true
	case stMinus:
		switch {
		case b == '0':
			c.state = stZero
		case '1' <= b && b <= '9':
			c.state = stDigits
		default:
			return c.fail("in numeric literal")
		}
		return true
	case stDigits:
		if isDigit(b) {
			return true
		}
		fallthrough
	case stZero:
		switch b {
		case '.':
			c.state = stDot
			return true
		case 'e', 'E':
			c.state = stExp
			return true
		}
		c.endValue()
		return c.step(b)
	case stDot:
		if !isDigit(b) {
			return c.fail("after decimal point in numeric literal")
		}
		c.state = stFraction
		return true
	case stFraction:
		if isDigit(b) {
			return true
		}
		if b == 'e' || b == 'E' {
			c.state = stExp
			return true
		}
		c.endValue()
		return c.step(b)
	case stExp:
		if b == '+' || b == '-' {
			c.state = stExpSign
			return true
		}
		fallthrough
	case stExpSign:
		if !isDigit(b) {
			return c.fail("in exponent of numeric literal")
		}
		c.state = stExpDigits
		return true
	case stExpDigits:
		if isDigit(b) {
			return true
		}
		c.endValue()
		return c.step(b)
	case stLiteral:
		if b != c.literal[0] {
			return c.fail("in literal " + c.word + " (expecting " + quoteChar(c.literal[0]) + ")")
		}
		if c.literal = c.literal[1:]; c.literal == "" {
			c.endValue()
		}
		return true
	}
	// stTop
	if !isSpace(b) {
		return c.fail("after top-level value")
	}
	return true
}

// quoteChar formats c as encoding/json's messages do: '\” and '"' as
// themselves, anything else as a quoted Go character (a byte ≥ 0x80 as the
// Latin-1 character of that number).
func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}
