"""What a request watches or works on, the job it describes and the output it asks for."""

from __future__ import annotations

import re

from intents.offline.entities import extract_entities
from intents.offline.lexicon import words
from intents.offline.text import TOKEN_RE, normalize
from intents.reading.cues import cues
from intents.reading.details.places import _CHANNEL_RE, _EMAIL_RE

# A phrase runs to the end of its sentence; a dot inside a word ("@bigclient.com") is no end.
_PHRASE = r"(?:[^.;!?]|\.(?=\w))+"
# What a request watches or works on, after its verb ("watches our Jira board for X" -> X).
_WATCH_FOR_RE = re.compile(
    r"\b(?:watch(?:es|ing)?|monitor(?:s|ing)?|check(?:s|ing)?|chekc?s?|chcek(?:s|ing)?|"
    r"scan(?:s|ning)?|track(?:s|ing)?|look(?:s|ing)? (?:through|at)|keep(?:s|ing)? an eye on|"
    r"search(?:es|ing)?|"
    r"dig(?:s|ging)? (?:through|into)|go(?:es|ing)? through|comb(?:s|ing)? through)\s+"
    r"(?:(?:[^,.;!?]|\.(?=\w)){0,100}?)\s+for\s+(?P<what>" + _PHRASE + ")",
    re.IGNORECASE,
)
_WATCH_RE = re.compile(
    r"\b(?:keep(?:s|ing)? an eye on|watch(?:es|ing)?|monitor(?:s|ing)?|track(?:s|ing)?|"
    r"look(?:s|ing)? (?:out )?for|search(?:es|ing)? for|"
    r"find(?:s|ing)?|collect(?:s|ing)?|flag(?:s|ging)?|gather(?:s|ing)?|"
    r"pull(?:s|ing)?(?! requests?\b)|"
    r"grab(?:s|bing)?|fetch(?:es|ing)?|"
    r"surveille|surveiller|vigila|vigilar|monitorea|überwacht|ueberwacht|beobachtet|"
    r"monitora|sammelt|recoge|recopila|recopilando|recopilar|compilar|compilando|compiler|"
    r"compile|rassembler|juntar|juntando|zusammenstellen|collecte|summari[sz]e[sd]?|"
    r"summari[sz]ing|"
    r"r[ée]cup[èe]re|r[ée]cup[ée]rer|extrae|extraer|busca|buscar|holt|puxa|pega|"
    r"review(?:s|ing)?|revis[ae]|revisar|v[ée]rifie|v[ée]rifier|verifica|pr[üu]ft|confiro|"
    r"conferir|confere|verifico|reviso|compruebo|busque|repère|rep[èe]re|repérer|encuentra|"
    r"encontra|trouve|olhar|olhe|acompanhar|vigiar|regarder|check(?:s|ing)?|"
    r"trova|trovare|cerca|cercare|controlla|controllare|segnala|segnalare|raccoglie|"
    r"raccogliere)\s+"
    r"(?:(?:à|a) la main|by hand|manually|a mano|von hand|"
    r"manualmente|à mão|a mão|manuellement)?\s*"
    r"(?P<what>" + _PHRASE + ")",
    re.IGNORECASE,
)
_SUMMARY_OF_RE = re.compile(
    r"\b(?:summary|summaries|digest|report|roundup|recap|overview|list|résumé|resume|resumen|"
    r"informe|rapport|Zusammenfassung|Bericht|resumo|relatório|relatorio)\s+"
    r"(?:\w+\s+)?(?:of|de|des|du|der|von|do|da|sobre|über)\s+(?P<what>" + _PHRASE + ")",
    re.IGNORECASE,
)
# German puts the verb last: "… überfällige Rechnungen aus Xero zusammenfasst".
# "… die offenen pull requests im github repo acme/backend checkt, die länger als 3 tage kein
# review haben": the object, and the relative clause that says which.
_DE_WATCH_RE = re.compile(
    r"(?P<what>(?:[^\W\d_][\w-]*\s){0,3}[^\W\d_][\w-]*)\s+(?:aus|von|in|im|bei)\s+"
    r"(?:\S+\s+){1,3}?"
    r"(?:zusammenfasst|zusammenfassen|pr[üu]ft|[üu]berwacht|sammelt|meldet|sucht|auflistet|"
    r"abruft|holt|checkt|kontrolliert|durchsucht|beobachtet)\b"
    r"(?:,?\s+(?P<which>(?:die|der|das|welche)\s+[^,.;!?]{3,80}?\s+(?:haben|hat|sind|ist|"
    r"werden|wird|liegen|liegt|warten|wartet)))?\b"
)
# "…, der in Shopify Produkte mit weniger als 10 Stück findet": the object before the verb.
_DE_RELATIVE_RE = re.compile(
    r"\b(?:der|die|das)\s+(?:in|aus|bei|von|im)\s+\S+\s+(?P<what>[^,.;!?]{3,80}?)\s+"
    r"(?:findet|sucht|pr[üu]ft|[üu]berwacht|meldet|sammelt|zusammenfasst|auflistet|holt)\b"
)
# "Wir vergessen ständig, die GitLab-Issues mit dem Label 'security' durchzugehen": what is
# forgotten, before its verb.
_DE_FORGOTTEN_RE = re.compile(
    r"\bvergess\w*\s+(?:(?:st[äa]ndig|immer|oft),?\s+)?(?:(?:die|den|das|alle)\s+)?"
    r"(?P<what>[^,.;!?]{3,80}?)\s+(?:durchzugehen|zu pr[üu]fen|zu checken|anzuschauen|"
    r"zu beantworten|nachzufassen|zu verl[äa]ngern)\b",
    re.IGNORECASE,
)
# A described miss ("we keep missing new Zendesk tickets …", "keep forgetting to follow up
# on …"): what it should watch.
_MISSED_RE = re.compile(
    r"\b(?:keep missing|always miss|(?:we|i) miss|missing|overlook(?:ing)?|[üu]bersehen|"
    r"(?:keep |always )?forget(?:ting)? to (?:follow up on|check|look at|chase|review|reply to|"
    r"answer|update)|lose track of|losing track of|"
    r"verpassen|se nos (?:pasan|escapan)|nos perdemos|on (?:rate|loupe)|deixamos passar)\s+"
    r"(?:(?:st[äa]ndig|immer|oft|constantly|always|often|toujours|souvent|siempre|sempre)\s+)?"
    r"(?P<what>" + _PHRASE + ")",
    re.IGNORECASE,
)
# "scroll through Linear to see which issues got assigned to my team overnight", "schreibe
# zusammen, welche GitHub-Issues … geschlossen wurden": what is looked for.
_SEE_WHICH_RE = re.compile(
    r"\b(?:see|check|find out|know|figure out|spot|work out|ver|saber|voir|savoir|sehen|"
    r"zusammen|nachsehen|nachschaut|schaut|revisando|revisar|mirando|comprobando|checando|"
    r"conferindo|conferir|verificando|verificar|olhando|"
    r"v[ée]rifier|pr[üu]fen|asks?(?: me| us)?|asking(?: me| us)?)"
    r"(?:\s+(?:en|in|dans|em|no|na)\s+\S+)?\s*,?\s+"
    r"(?:(?:which|what|whether|if|quais|quels?|quelles?|"
    # "wer nächste Woche anfängt" keeps its "wer": without it the clause says nothing.
    r"cu[aá]les|qu[eé]|welche)\s+|(?=(?:wer|was|ob)\s))(?P<what>" + _PHRASE + ")",
    re.IGNORECASE,
)
# "new agnet: new sentry issues from the last 24h": what follows the colon.
_AGENT_COLON_RE = re.compile(
    r"\b(?:agent|agnet|agetn|bot|automation|monitor|agente)\s*:\s*(?P<what>" + _PHRASE + ")",
    re.IGNORECASE,
)
# "posts overdue Jira tickets to #eng": what is sent is what it looks for.
_POSTS_WHAT_RE = re.compile(
    r"\b(?:posts?|sends?|emails?|forwards?|shares?|drops?|pushes?|delivers?|dms?)\s+(?:me\s+|us\s+)?"
    r"(?P<what>(?!(?:a|an|the|me|us|it|them|results?|summar\w+|digest|report|alerts?|"
    r"notifications?|messages?)\b)[^,.;!?#@]{3,80}?)\s+(?:to|into|in|on)\s+(?=#|slack\b|teams\b|"
    r"[\w.+-]+@)",
    re.IGNORECASE,
)
_AFTER_COLON_RE = re.compile(r":\s*(?P<what>" + _PHRASE + ")")
# "emails me every new HubSpot lead": what it reacts to.
_EVERY_NEW_RE = re.compile(
    r"\b(?:every|each|any|all|whenever an?|when an?|posts?|sends?|emails?|forwards?|shares?)\s+"
    # "emails me (dana@kiln.studio) the new airtable rows": past who gets them.
    r"(?:(?:me|us)\s+)?(?:\([^)]{1,60}\)\s+)?(?:(?:the|all|any)\s+)?"
    r"(?P<what>new\s+" + _PHRASE + ")",
    re.IGNORECASE,
)
_AGENT_FOR_RE = re.compile(
    r"\b(?:agent|bot|automation|agente)\s+(?:for|para|pour|für)\s+(?P<what>" + _PHRASE + ")",
    re.IGNORECASE,
)
# A described job ("I spend an hour copying X from A into B"), from its verb on.
_JOB_RE = re.compile(
    r"\b(?P<verb>copying|copy|pasting|paste|pulling|exporting|moving|compiling|updating|"
    r"analy[sz]e|analy[sz]ing|prepare|preparing|put together|putting together|"
    r"transferring|syncing|entering|typing|copiando|pegando|exportando|pasando|copier|"
    r"recopier|coller|exporter|kopiere|kopieren|übertrage|uebertrage|exportiere|copiar|"
    r"copio|copie)\b(?P<rest>" + _PHRASE + ")",
    re.IGNORECASE,
)
_GERUND = {
    "copying": "Copy", "pasting": "Paste", "pulling": "Pull", "exporting": "Export",
    "moving": "Move", "compiling": "Compile", "updating": "Update", "transferring": "Transfer",
    "syncing": "Sync", "entering": "Enter", "typing": "Type", "analyzing": "Analyze",
    "analysing": "Analyse", "preparing": "Prepare", "putting together": "Put together",
}  # fmt: skip
# Where a phrase stops: its schedule, its destination, or the next clause.
_TAIL_RE = re.compile(
    r"\s*(?:\(|,|;| - | evry\b| and (?:then )?(?:send|sends|post|posts|email|emails|alert|alerts|"
    r"ping|"
    r"pings|notify|notifies|message|messages|share|shares|drop|drops|put|puts|report|reports|"
    r"paste|pastes|copy|copies|forward|forwards|dump|dumps|write|writes)\b|"
    r" then\b| and \w+ing\b| and (?:i|we) \w+| (?:y|e) \w+?(?:a|e|ie|i[ée]|é)ndo\w*| into #|"
    r" every\b| each\b|"
    r" daily\b| weekly\b| monthly\b|"
    r" hourly\b| at \d| on (?:mon|tue|"
    r"wed|thu|fri|sat|sun)| to #| to [\w.+-]+@| in slack\b| on slack\b| via\b| by email\b|"
    r" e (?:me |nos )?(?:manda\w*|envia\w*|posta\w*|public\w*|avis\w*)|"
    r" tod[oa]s? (?:os |as )?(?:dias?|semanas?|segunda|ter[cç]a|quarta|quinta|sexta)| às \d|"
    r" y (?:me |nos |te )?(?:env[ií]\w*|mand\w*|avis\w*|public\w*)| et (?:m'|nous |me )?"
    r"(?:envoie|envoyer|poste|publie|alerte)\w*| und (?:mir |uns )?(?:schick|send|post)\w*|"
    r" cada\b| chaque\b| tous les\b| toutes les\b| jeden\b| jede\b| todos los\b| todas las\b|"
    r" ogni\b| tutti i giorni\b| alle \d| e (?:mi |ci |li |le |lo )?(?:invia|manda|segnala|"
    r"avvisa|pubblica)\w*|"
    r" los (?:lunes|martes|miercoles|miércoles|jueves|viernes)| a las \d| à \d| um \d|"
    r" por (?:slack|correo|email)| par (?:e-?mail|slack)| an #| à [\w.+-]+@| a [\w.+-]+@|"
    r" para (?:publicar|enviar|mandar|postar)\w*| pour (?:les |la |le )?(?:envoyer|publier|"
    r"poster)\w*|"
    r" that day\b(?=.*\bevery\b))",
    re.IGNORECASE,
)
_LEAD_RE = re.compile(r"^(?:(?:dans|in|from|en|aus|em|no|na|de) \S+ (?=(?:les|the|los|las|die|"
                      r"os|as|le|la|des)\b)|(?:for|the|all|any|our|my|me|us|un|una|une|le|la|"
                      r"les|los|las|der|die|das|den|eine|einen|ein|os|as|gli|il|lo)\b\s*)",
                      re.IGNORECASE)  # fmt: skip
# The kind of output a request asks for, by its words (a word that starts with "summar" is
# a summary). The reading splits "round-up" and "heads-up" into two words, which "round up"
# and "heads up" are as well: those two are read from the words as written.
_SUMMARY_WORDS = cues(
    """
    summar*|resum*|zusammenfass*
    =digest|recap|roundup|synthese
    """
)
_REPORT_WORDS = cues(
    """
    report*
    =informe|rapport|bericht|relatorio|dashboard
    """
)
_ALERT_WORDS = cues(
    """
    alert*|notif*|ping*|warn*|avis*|benachrichtig*|nudge*|remind*
    """
)
_SEND_WORDS = cues(
    "send*|post*|email*|e-mail*|mail*|message*|share*|drop*|envi*|mand*|publi*|schick*"
)


def _clean(phrase: str) -> str:
    phrase = _TAIL_RE.split(phrase, maxsplit=1)[0]
    quoted = phrase.rstrip(" ,.;:!?-").endswith("'")
    phrase = phrase.strip(" ,.;:!?-\"'")
    if quoted and phrase.count("'") % 2 == 1:
        phrase += "'"  # "… mit dem Label 'security'": the closing quote of a quoted name
    for _ in range(2):
        phrase = _LEAD_RE.sub("", phrase)
    return phrase[:160].strip()


def _job(text: str) -> str | None:
    match = _JOB_RE.search(text)
    if not match:
        return None
    rest = re.sub(r"\s*\([^)]*\)", "", match.group("rest"))
    rest = re.split(
        r"\s*(?:,|;| every\b| each\b| cada\b| chaque\b| jeden\b| and \w+ing\b| into #| to #)",
        rest,
    )[0]
    verb = match.group("verb")
    lead = _GERUND.get(verb.lower(), verb)  # other languages' words stay as written
    return f"{lead}{rest}".strip(" ,.")[:200]


def what_it_watches(text: str) -> str | None:
    """What a request watches or works on, in the user's words ("overdue tickets"); a phrase
    that only names the tool ("revise Zendesk") counts when no other says more."""
    only_tool: str | None = None
    for pattern in (
        # German verb-final clauses first: their verbs are German, and an English-looking word
        # inside them ("kein review haben") is no verb.
        _DE_WATCH_RE,
        _DE_RELATIVE_RE,
        _DE_FORGOTTEN_RE,
        _WATCH_FOR_RE,
        _SUMMARY_OF_RE,
        _SEE_WHICH_RE,
        _AGENT_COLON_RE,
        _WATCH_RE,
        _POSTS_WHAT_RE,
        _EVERY_NEW_RE,
        _MISSED_RE,
    ):
        match = pattern.search(text)
        while match:
            what = match.group("what")
            if pattern is _DE_WATCH_RE:
                # "montags die offenen issues": what follows its article, not the day before.
                what = re.split(r"\b(?:die|der|das|den|dem)\s+", what, flags=re.IGNORECASE)[-1]
                # "um 8 Uhr neue Bewerbungen": not the hour before it either.
                first = what.split(maxsplit=1)
                if len(first) == 2 and not what[:1].isspace() and first[0].lower() in _HOUR_WORDS:
                    what = first[1]
            # "récupère chaque mardi à 9h (heure de Paris) les rendez-vous …": the schedule
            # said first is no part of what it looks for.
            phrase = _clean(_SCHEDULE_FIRST_RE.sub("", what, count=1))
            which = match.groupdict().get("which")
            if which and phrase:
                phrase = f"{phrase}, {which}"
            if len(phrase) >= 3 and not _EMAIL_RE.fullmatch(phrase):
                if not _only_a_tool(phrase):
                    return phrase
                only_tool = only_tool or phrase
            # "revise Zendesk cada día, busque tickets …": the next verb may say what.
            match = pattern.search(text, match.start() + 1)
    return only_tool


# Words of a German schedule that may come first in what is watched (the hour's "Uhr").
_HOUR_WORDS = frozenset(("uhr", "morgens", "abends", "täglich", "taeglich"))


def _only_a_tool(phrase: str) -> bool:
    """ "o Intercom", "le dépôt GitHub acme/api": where it reads, not what it looks for."""
    source = extract_entities(phrase).get("source")
    if not source:
        return False
    tool = set(re.split(r"[_,]", source))
    rest = [
        w
        for w in normalize(phrase).split()
        if w not in tool and w not in _WHERE_WORDS and "/" not in w
    ]
    return not rest


# Words that only say where a tool keeps things ("le dépôt", "our workspace").
_WHERE_WORDS = words(
    "o a os as le la les el los las the our my de du des do da no na em in on dans depot "
    "repo repository repositorio base instance account workspace data der die das den dem im "
    "und and store shop site website org organization helpdesk inbox board team app tool "
    "instance portal"
)


def what_it_does(text: str) -> str | None:
    """The kind of output a request asks for: a summary, a report, an alert, a message."""
    from intents.reading.reading import read  # the reading reads its details through here

    text = _CHANNEL_RE.sub(" ", _EMAIL_RE.sub(" ", text))  # "#ops-alerts" names a channel
    said, written = read(text), TOKEN_RE.findall(normalize(text))
    if said.matches(_SUMMARY_WORDS) or "round-up" in written:
        return "Send a summary"
    if said.matches(_REPORT_WORDS):
        return "Build a report"
    if said.matches(_ALERT_WORDS) or "heads-up" in written:
        return "Send an alert"
    if said.matches(_SEND_WORDS):
        return "Send the results"
    return None


_SCHEDULE_FIRST_RE = re.compile(
    r"^(?:chaque|tous les|toutes les|every|each|cada|jeden|jede|todos los|todas las|todo|toda|"
    r"todos os|todas as|ogni)\s+\S+(?:\s+(?:à|a|at|um|as|às|alle|a las)\s+\S+)?"
    r"(?:\s*\([^)]*\))?[\s,]*(?=\S)",
    re.IGNORECASE,
)
