# Writes python-json.json: JSON texts whose objects repeat keys, and what
# Python's json.loads then json.dumps(ensure_ascii=False) make of them, with
# the separators a chat template's tojson uses (", ", ": ") and with
# indent=4. core's TestPythonJSON holds appendPyJSON and appendIndented to
# them. Regenerate: python3 core/testdata/python-json.py > core/testdata/python-json.json
import json
import random
import sys

rng = random.Random(35)
# Keys that repeat: "a" also written as "\u0061", case variants (distinct
# keys), and non-ASCII ones.
KEYS = ['"a"', '"\\u0061"', '"b"', '"A"', '"q"', '"é"', '"\\u00e9"', '"中"', '"k k"', '"\\n"']
STRINGS = ['"x"', '"é<&>"', '"\\u00e9\\u003c"', '"tab\\there"', '"\\u0001\\u001f"', '"q\\"uote\\\\"', '"中文 😀"', '""', '"\\ud83d\\ude00"']


def value(depth):
    r = rng.random()
    if depth < 3 and r < 0.3:
        members = [KEYS[rng.randrange(len(KEYS))] + rng.choice([':', ' : ', ':  ']) + value(depth + 1) for _ in range(rng.randrange(6))]
        return '{' + ', '.join(members) + '}'
    if depth < 3 and r < 0.45:
        return '[' + ','.join(value(depth + 1) for _ in range(rng.randrange(4))) + ']'
    if r < 0.7:
        return STRINGS[rng.randrange(len(STRINGS))]
    if r < 0.9:
        return str(rng.choice([0, 1, -1, 42, 123456789012345, -0]))
    return rng.choice(['true', 'false', 'null'])


cases = []
for _ in range(400):
    members = [KEYS[rng.randrange(len(KEYS))] + ': ' + value(1) for _ in range(1 + rng.randrange(6))]
    text = '{' + ', '.join(members) + '}'
    v = json.loads(text)
    cases.append({
        'json': text,
        'dumps': json.dumps(v, ensure_ascii=False, separators=(', ', ': ')),
        'indent': json.dumps(v, ensure_ascii=False, indent=4),
    })
json.dump({
    'about': 'Made by python-json.py (make generate); do not edit. Python json.loads keeps the last value of a repeated key where the key first appears.',
    'cases': cases,
}, sys.stdout, ensure_ascii=False, indent=1)
sys.stdout.write('\n')
