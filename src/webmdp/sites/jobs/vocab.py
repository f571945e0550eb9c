"""Job Network vocabulary: titles, companies, places, skills, benefits, people.

Plain data (WebSTEP E.2 world generation draws from it); nothing here knows about states.
"""

from __future__ import annotations

TITLES: tuple[str, ...] = (
    "Software Engineer", "Data Scientist", "Product Manager", "UX Designer", "Data Analyst",
    "DevOps Engineer", "Marketing Manager", "Frontend Developer", "Machine Learning Engineer",
    "Account Executive")
TITLE_SKILLS: dict[str, tuple[str, ...]] = {
    "Software Engineer": ("Python", "Java", "Go", "AWS", "Kubernetes", "PostgreSQL"),
    "Data Scientist": ("Python", "SQL", "PyTorch", "Statistics", "Spark", "Tableau"),
    "Product Manager": ("Roadmapping", "SQL", "A/B Testing", "Jira", "Figma", "Analytics"),
    "UX Designer": ("Figma", "Prototyping", "User Research", "Sketch", "Accessibility",
                    "Design Systems"),
    "Data Analyst": ("SQL", "Excel", "Tableau", "Power BI", "Python", "Looker"),
    "DevOps Engineer": ("Kubernetes", "Terraform", "AWS", "Docker", "Linux", "Go"),
    "Marketing Manager": ("SEO", "HubSpot", "Content Strategy", "Google Ads", "Analytics",
                          "Copywriting"),
    "Frontend Developer": ("React", "TypeScript", "CSS", "Next.js", "GraphQL", "Accessibility"),
    "Machine Learning Engineer": ("PyTorch", "Python", "MLOps", "TensorFlow", "Spark", "AWS"),
    "Account Executive": ("Salesforce", "Negotiation", "SaaS Sales", "HubSpot", "Forecasting",
                          "Prospecting"),
}
COMPANIES: tuple[str, ...] = (
    "Northwind Labs", "Brightpath", "Helio Systems", "Cobalt Health", "Lumen Analytics",
    "Redwood Financial", "Quanta Robotics", "Bluefin Media", "Atlas Logistics", "Vantage Cloud",
    "Orchid Bio", "Summit Retail")
LOCATIONS: tuple[str, ...] = (
    "San Francisco, CA", "New York, NY", "Seattle, WA", "Austin, TX", "Boston, MA",
    "Chicago, IL", "Denver, CO")
WORKPLACES: tuple[str, ...] = ("On-site", "Hybrid", "Remote")
JOB_TYPES: tuple[str, ...] = ("Full-time", "Part-time", "Contract", "Internship")
EXPERIENCE: tuple[str, ...] = ("Entry level", "Associate", "Mid-Senior level", "Director")
SALARY_STEPS: tuple[str, ...] = ("80", "100", "120", "140", "160")
SALARY_LABELS = {s: f"${s},000+" for s in SALARY_STEPS}
BENEFITS: tuple[str, ...] = (
    "Medical insurance", "401(k)", "Parental leave", "Tuition assistance", "Commuter benefits",
    "Stock options", "Unlimited PTO", "Gym stipend")
COMPANY_SIZES: tuple[str, ...] = (
    "11-50 employees", "51-200 employees", "201-500 employees", "501-1,000 employees",
    "1,001-5,000 employees", "5,001-10,000 employees", "10,001+ employees")
TEAMS: tuple[str, ...] = (
    "Payments", "Search", "Growth", "Platform", "Infrastructure", "Identity", "Analytics",
    "Mobile", "Checkout", "Onboarding")
RESUMES: tuple[str, ...] = ("Resume_2026.pdf", "Resume_Technical.pdf", "CV_Short.pdf")

FIRST_NAMES: tuple[str, ...] = (
    "Priya", "Daniel", "Maya", "Lucas", "Aisha", "Ethan", "Sofia", "Kenji", "Hannah", "Omar",
    "Grace", "Mateo", "Chloe", "Ravi", "Elena", "Jamal", "Nora", "Tomas", "Leah", "Victor")
LAST_NAMES: tuple[str, ...] = (
    "Patel", "Kim", "Garcia", "Nguyen", "Okafor", "Rossi", "Cohen", "Silva", "Tanaka", "Murphy",
    "Haddad", "Novak", "Schmidt", "Brooks", "Ortiz", "Larsen")
SCHOOLS: tuple[str, ...] = (
    "University of Michigan", "Georgia Tech", "UC Berkeley", "University of Texas at Austin",
    "Carnegie Mellon University", "University of Washington", "Boston University",
    "Northwestern University")
ROLES: tuple[str, ...] = (
    "Recruiter", "Engineering Manager", "Senior Software Engineer", "Data Scientist",
    "Product Designer", "Talent Acquisition Partner", "Product Manager")
ROLE_SKILLS: dict[str, tuple[str, ...]] = {
    "Recruiter": ("Technical Recruiting", "Sourcing", "Interviewing", "Employer Branding",
                  "Greenhouse", "Negotiation"),
    "Engineering Manager": ("Team Leadership", "Hiring", "System Design", "Agile", "Mentoring",
                            "Go"),
    "Senior Software Engineer": ("Python", "Distributed Systems", "AWS", "Kubernetes", "Java",
                                 "System Design"),
    "Data Scientist": ("Python", "SQL", "Machine Learning", "Statistics", "Tableau", "Spark"),
    "Product Designer": ("Figma", "Prototyping", "User Research", "Design Systems",
                         "Interaction Design", "Accessibility"),
    "Talent Acquisition Partner": ("Sourcing", "Employer Branding", "Workday", "Interviewing",
                                   "Onboarding", "Diversity Hiring"),
    "Product Manager": ("Roadmapping", "A/B Testing", "SQL", "Analytics", "Jira",
                        "Go-to-market"),
}
TOPICS: tuple[str, ...] = (
    "hiring", "a product launch", "a conference talk", "a new role", "remote work",
    "mentorship", "an open-source release", "a team offsite")
POSTS: dict[str, str] = {
    "hiring": "We're hiring! My team is growing and we have several open roles. DM me if you "
              "want to chat about what it's like to work here.",
    "a product launch": "Proud of the team: we just shipped our biggest launch of the year. "
                        "Months of work, thousands of customers, one very happy Slack channel.",
    "a conference talk": "Slides from my conference talk are up. Thanks to everyone who came "
                         "by with questions afterwards - great discussions.",
    "a new role": "Some personal news: I'm starting a new position this month. Grateful to "
                  "everyone who helped me along the way.",
    "remote work": "Two years fully remote. Three things that made the biggest difference: "
                   "written decisions, async standups and a real desk chair.",
    "mentorship": "Mentorship changed my career. This year I'm paying it forward - I have a "
                  "few slots open for early-career folks.",
    "an open-source release": "We just open-sourced an internal tool we've used for years. "
                              "Contributions and feedback welcome!",
    "a team offsite": "Great week at our team offsite - planning, hiking and far too much "
                      "coffee. Back at it Monday with a clear roadmap.",
}
NOTES: tuple[str, ...] = (
    "Hi! I'd love to connect and learn more about your team.",
    "Hello, I'm exploring roles in your area and would value connecting.",
    "Hi, we met at the meetup last week - great to connect here.",
    "Hi, I admire your work and would like to stay in touch.")
MESSAGES: tuple[str, ...] = (
    "Hi, is the team still hiring this quarter?",
    "Thanks for sharing your post, could we chat for 15 minutes next week?",
    "Hello! I applied for the open role and wanted to introduce myself.",
    "Hi, would you be open to a quick call about your experience there?")
PHONES: tuple[str, ...] = ("415-555-0132", "212-555-0187", "206-555-0144", "512-555-0199")
