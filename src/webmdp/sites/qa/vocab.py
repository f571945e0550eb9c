"""Coding Q&A vocabulary: tags with their topics, error messages, environments and code."""

from __future__ import annotations

TAGS: tuple[str, ...] = ("python", "javascript", "java", "reactjs", "sql", "docker", "git",
                         "pandas")
TAG_INFO: dict[str, str] = {
    "python": "Python is a dynamically typed, multi-paradigm programming language.",
    "javascript": "For questions about programming in ECMAScript (JavaScript/JS) and its "
                  "dialects and implementations.",
    "java": "Java is a high-level, class-based, object-oriented programming language.",
    "reactjs": "React is a JavaScript library for building user interfaces.",
    "sql": "Structured Query Language (SQL) is a language for querying databases.",
    "docker": "Docker is a tool to build and run applications in containers.",
    "git": "Git is an open-source distributed version control system (DVCS).",
    "pandas": "Pandas is a Python library for data manipulation and analysis.",
}
RELATED: dict[str, tuple[str, ...]] = {
    "python": ("python-3.x", "list", "dictionary", "asyncio"),
    "javascript": ("node.js", "arrays", "promise", "dom"),
    "java": ("spring-boot", "maven", "hibernate", "generics"),
    "reactjs": ("react-hooks", "typescript", "next.js", "redux"),
    "sql": ("postgresql", "mysql", "join", "sql-server"),
    "docker": ("docker-compose", "dockerfile", "kubernetes", "nginx"),
    "git": ("github", "git-merge", "git-rebase", "version-control"),
    "pandas": ("dataframe", "numpy", "python", "group-by"),
}
TOPICS: dict[str, tuple[str, ...]] = {
    "python": ("list comprehension", "virtualenv", "asyncio loop", "dataclass", "decorator",
               "generator", "subprocess", "json parsing"),
    "javascript": ("fetch request", "event listener", "async await", "array sort",
                   "closure", "local storage", "regex match", "date parsing"),
    "java": ("hashmap iteration", "stream collector", "thread pool", "jackson mapper",
             "optional chaining", "maven build", "string formatting", "junit test"),
    "reactjs": ("useEffect hook", "controlled input", "context provider", "react router",
                "state update", "list keys", "custom hook", "form validation"),
    "sql": ("left join", "group by", "window function", "subquery", "index scan",
            "date range", "upsert statement", "null comparison"),
    "docker": ("volume mount", "compose network", "multi-stage build", "container port",
               "image size", "entrypoint script", "build cache", "environment variables"),
    "git": ("merge conflict", "interactive rebase", "detached head", "submodule update",
            "stash pop", "force push", "cherry pick", "gitignore pattern"),
    "pandas": ("groupby aggregate", "merge dataframes", "pivot table", "datetime index",
               "read csv", "apply function", "missing values", "multiindex columns"),
}
TITLE_PATTERNS: tuple[str, ...] = (
    "How do I fix this {topic} error?",
    "{Topic} not working after upgrading",
    "Why does my {topic} throw an exception?",
    "{Topic} behaves differently in production",
    "Unexpected result from {topic}",
    "{Topic} fails only in unit tests",
    "Best practice for {topic} in a large project",
    "{Topic} works locally but not on the server",
)
ERRORS: dict[str, tuple[str, ...]] = {
    "python": ("TypeError: 'NoneType' object is not subscriptable",
               "KeyError: 'user_id'", "ModuleNotFoundError: No module named 'requests'",
               "RuntimeError: Event loop is closed",
               "AttributeError: 'dict' object has no attribute 'items_list'",
               "ValueError: too many values to unpack (expected 2)"),
    "javascript": ("TypeError: Cannot read properties of undefined (reading 'map')",
                   "ReferenceError: fetchData is not defined",
                   "SyntaxError: Unexpected token '<' in JSON at position 0",
                   "Uncaught (in promise) TypeError: Failed to fetch",
                   "RangeError: Maximum call stack size exceeded",
                   "TypeError: items.sort is not a function"),
    "java": ("java.lang.NullPointerException", "java.util.ConcurrentModificationException",
             "java.lang.ClassCastException: String cannot be cast to Integer",
             "java.lang.OutOfMemoryError: Java heap space",
             "java.lang.IllegalStateException: Stream has already been operated upon",
             "java.lang.NoSuchMethodError: 'void Builder.build()'"),
    "reactjs": ("Too many re-renders. React limits the number of renders",
                "Each child in a list should have a unique \"key\" prop",
                "Cannot update a component while rendering a different component",
                "Invalid hook call. Hooks can only be called inside a function component",
                "A component is changing an uncontrolled input to be controlled",
                "Objects are not valid as a React child"),
    "sql": ("ERROR: column \"total\" must appear in the GROUP BY clause",
            "ERROR: syntax error at or near \"OVER\"",
            "Deadlock found when trying to get lock",
            "ERROR: duplicate key value violates unique constraint",
            "Subquery returns more than 1 row",
            "ERROR: operator does not exist: integer = text"),
    "docker": ("Error: bind: address already in use",
               "no space left on device",
               "exec /entrypoint.sh: no such file or directory",
               "permission denied while trying to connect to the Docker daemon socket",
               "network app_default not found",
               "failed to solve: failed to compute cache key"),
    "git": ("fatal: refusing to merge unrelated histories",
            "error: failed to push some refs to 'origin'",
            "fatal: not a git repository (or any of the parent directories)",
            "error: Your local changes would be overwritten by checkout",
            "fatal: No url found for submodule path 'lib' in .gitmodules",
            "CONFLICT (content): Merge conflict in README.md"),
    "pandas": ("KeyError: \"None of [Index(['date'])] are in the [columns]\"",
               "SettingWithCopyWarning: A value is trying to be set on a copy of a slice",
               "ValueError: cannot reindex on an axis with duplicate labels",
               "TypeError: unhashable type: 'list'",
               "ParserError: Error tokenizing data. C error: Expected 3 fields",
               "MergeError: No common columns to perform merge on"),
}
ENVIRONMENTS: dict[str, tuple[str, ...]] = {
    "python": ("Python 3.8", "Python 3.10", "Python 3.11", "Python 3.12", "PyPy 3.9"),
    "javascript": ("Node.js 16", "Node.js 18", "Node.js 20", "Chrome 120", "Firefox 121"),
    "java": ("Java 8", "Java 11", "Java 17", "Java 21", "Spring Boot 3.2"),
    "reactjs": ("React 16.14", "React 17", "React 18.2", "Next.js 13", "Next.js 14"),
    "sql": ("PostgreSQL 13", "PostgreSQL 15", "MySQL 5.7", "MySQL 8.0", "SQL Server 2019"),
    "docker": ("Docker 20.10", "Docker 24.0", "Docker Desktop 4.26", "Compose v2.23",
               "Podman 4.7"),
    "git": ("git 2.25", "git 2.34", "git 2.39", "git 2.43", "Git for Windows 2.42"),
    "pandas": ("pandas 1.3", "pandas 1.5", "pandas 2.0", "pandas 2.1", "pandas 2.2"),
}
CODE: dict[str, tuple[tuple[str, str], ...]] = {
    "python": (("zip(*rows)", "pairs = list(zip(*rows))\nfor a, b in pairs:\n    print(a, b)"),
               ("functools.lru_cache", "@functools.lru_cache(maxsize=None)\ndef load(key):\n"
                "    return db.get(key)"),
               ("asyncio.run", "async def main():\n    await fetch_all(urls)\n\n"
                "asyncio.run(main())"),
               ("json.loads", "data = json.loads(response.text)\nuser = data['user_id']"),
               ("subprocess.run", "out = subprocess.run(['ls', '-l'], capture_output=True)\n"
                "print(out.stdout)"),
               ("defaultdict(list)", "groups = defaultdict(list)\nfor k, v in items:\n"
                "    groups[k].append(v)")),
    "javascript": (("Promise.all", "const results = await Promise.all(urls.map(fetch));"),
                   ("addEventListener", "button.addEventListener('click', () => {\n"
                    "  submit(form);\n});"),
                   ("JSON.parse", "const data = JSON.parse(await res.text());"),
                   ("localStorage.setItem", "localStorage.setItem('token', token);"),
                   ("Array.from", "const ids = Array.from(nodes, n => n.dataset.id);"),
                   ("setTimeout", "setTimeout(() => render(state), 0);")),
    "java": (("Collectors.groupingBy", "Map<String, List<User>> byCity = users.stream()\n"
              "    .collect(Collectors.groupingBy(User::getCity));"),
             ("ExecutorService", "ExecutorService pool = Executors.newFixedThreadPool(4);"),
             ("ObjectMapper", "User u = new ObjectMapper().readValue(json, User.class);"),
             ("Optional.ofNullable", "String name = Optional.ofNullable(user)\n"
              "    .map(User::getName).orElse(\"anon\");"),
             ("Iterator.remove", "Iterator<String> it = list.iterator();\n"
              "while (it.hasNext()) { if (it.next().isEmpty()) it.remove(); }"),
             ("String.format", "String s = String.format(\"%s-%04d\", prefix, n);")),
    "reactjs": (("useEffect", "useEffect(() => {\n  load().then(setItems);\n}, []);"),
                ("useState", "const [value, setValue] = useState('');"),
                ("useContext", "const theme = useContext(ThemeContext);"),
                ("useMemo", "const sorted = useMemo(() => sortBy(items), [items]);"),
                ("useNavigate", "const navigate = useNavigate();\nnavigate('/home');"),
                ("React.memo", "export default React.memo(Row);")),
    "sql": (("ROW_NUMBER()", "SELECT id, ROW_NUMBER() OVER (PARTITION BY user_id)\n"
             "FROM orders;"),
            ("LEFT JOIN", "SELECT u.name, o.total FROM users u\n"
             "LEFT JOIN orders o ON o.user_id = u.id;"),
            ("COALESCE", "SELECT COALESCE(nickname, name) FROM users;"),
            ("ON CONFLICT", "INSERT INTO tags (name) VALUES ('x')\nON CONFLICT DO NOTHING;"),
            ("HAVING COUNT", "SELECT user_id FROM orders\nGROUP BY user_id "
             "HAVING COUNT(*) > 3;"),
            ("BETWEEN", "SELECT * FROM events\nWHERE day BETWEEN '2024-01-01' AND "
             "'2024-01-31';")),
    "docker": (("COPY --from", "FROM node:20 AS build\nRUN npm ci && npm run build\n"
                "FROM nginx:alpine\nCOPY --from=build /app/dist /usr/share/nginx/html"),
               ("depends_on", "services:\n  web:\n    depends_on:\n      - db"),
               ("EXPOSE 8080", "FROM python:3.12-slim\nEXPOSE 8080\nCMD [\"gunicorn\", "
                "\"app:app\"]"),
               ("ENTRYPOINT", "COPY entrypoint.sh /\nENTRYPOINT [\"/entrypoint.sh\"]"),
               ("volumes:", "services:\n  db:\n    volumes:\n      - pgdata:/var/lib/pg"),
               ("--no-cache", "docker build --no-cache -t app:latest .")),
    "git": (("git rebase -i", "git rebase -i HEAD~3"),
            ("git pull --rebase", "git pull --rebase origin main"),
            ("git stash pop", "git stash\ngit checkout main\ngit stash pop"),
            ("git submodule update", "git submodule update --init --recursive"),
            ("git push --force-with-lease", "git push --force-with-lease origin feature"),
            ("git cherry-pick", "git cherry-pick 4f2a9c1")),
    "pandas": (("pd.merge", "out = pd.merge(left, right, on='id', how='left')"),
               ("groupby(", "df.groupby('city')['sales'].sum()"),
               ("pivot_table", "df.pivot_table(index='day', columns='shop', values='n')"),
               ("pd.to_datetime", "df['date'] = pd.to_datetime(df['date'])"),
               ("read_csv", "df = pd.read_csv('data.csv', sep=';')"),
               (".apply(", "df['len'] = df['name'].apply(len)")),
}
PHRASES: tuple[str, ...] = ("on Windows 11", "inside a Docker container", "in a CI pipeline",
                            "behind a corporate proxy", "on an M1 Mac",
                            "with a very large dataset", "after a dependency upgrade",
                            "on a fresh Ubuntu 22.04 install")
USERS: tuple[str, ...] = ("bug_hunter", "Priya Raman", "Tomás Ortega", "kernel_panic",
                          "Mei Lin", "Jonas Berg", "null_pointer", "Aisha Bello",
                          "Lukas Novak", "dev_grace", "Omar Haddad", "stack_sam",
                          "Hana Sato", "Carlos Mendez", "ferris_fan", "Ingrid Olsen")
ME = "alex_dev"
LOCATIONS: tuple[str, ...] = ("Berlin, Germany", "Bangalore, India", "Austin, TX",
                              "Toronto, Canada", "São Paulo, Brazil", "Tokyo, Japan",
                              "London, United Kingdom", "Lagos, Nigeria")
ANSWER_OPENERS: tuple[str, ...] = (
    "The problem is that", "You need to make sure that", "This happens because",
    "In my experience", "The documentation says that", "Try changing the order so that")
ANSWER_CLAIMS: tuple[str, ...] = (
    "the value is read before it is initialised.", "the old version is still cached.",
    "the call runs in a different context than you expect.",
    "the configuration file is not picked up.", "you are mutating the object while iterating.",
    "the path is relative to the working directory, not the file.")
COMMENTS: tuple[str, ...] = ("Can you share the full stack trace?",
                             "Which version are you on?", "Possible duplicate of a known issue.",
                             "Please add a minimal reproducible example.",
                             "Did you try clearing the cache?", "This worked for me, thanks!")
REPLIES: tuple[str, ...] = ("Thanks, that fixed it for me.", "Could you add a code example?",
                            "I ran into the same problem last week.",
                            "This is also documented in the changelog.",
                            "Works on my machine with the latest version.")
YEARS: tuple[str, ...] = ("2021", "2022", "2023", "2024", "2025")
VOTE_STEPS: tuple[str, ...] = ("1", "5", "10", "25")
ANSWER_ORDERS: tuple[str, ...] = ("votes", "newest", "oldest")
