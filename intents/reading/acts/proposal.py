"""Acts of asking for an agent and of answering the assistant's proposal."""

from __future__ import annotations

from intents.reading.acts.entry import Act, Entry, entry

_CREATE = "@V_CREATE|@V_MAKE|@V_CONFIGURE|@WISH|@ADJ_NEW|want|need|like|love|quero|queria"
_WISH = "gostaria|quiero|quisiera|necesito|preciso|brauche|veux|voudrais|aimerais|vorrei|voglio"
_IT = "it|its|that|them|their"

PROPOSAL: tuple[Entry, ...] = (
    entry(
        Act.ASKS_FOR_AGENT,
        "An agent asked for in so many words gets the wizard; a described chore gets a proposal.",
        f"""
        {_CREATE}|{_WISH}|make …3 @N_AGENT|agent
        ^ new? @N_AGENT|agent :
        """,
        examples=(
            "Create an agent that watches our Jira board",
            "quero criar um agente",
            "I'd like a bot for our Stripe payouts",
        ),
    ),
    entry(
        Act.UNDO,
        "Right after a creation, taking it back removes what was just made.",
        """
        undo
        cancel it|that
        actually cancel|delete|remove
        delete|remove|scrap it|that
        take it|that back
        deshaz*|annule|annulla|desfaz|ruckgangig*
        actually no
        """,
        unless="actually no call|name|make|set|change|use|its|send|post|put|run|at|on|every|to",
        examples=("undo that", "actually, delete it", "scrap that please"),
    ),
    entry(
        Act.INSISTS,
        "Told that an agent like it exists, the user still wants this one made.",
        """
        anyway|anyways|still|duplicate|trotzdem
        second|another one
        a copy
        de todos modos
        quand meme
        """,
        examples=("create it anyway", "make a second one", "yes, I want a copy"),
    ),
    entry(
        Act.NO_NEED,
        "Told that an agent like it exists, the user turns the second one down.",
        "no|not|dont|nicht|kein*|pas|sin|sem|nao …4 another|second|copy|duplicate|anyway|otro"
        "|otra|autre|zweiten|outro|noch",
        examples=(
            "no need for another one then",
            "I don't want a duplicate",
            "not a second one, no",
        ),
    ),
    entry(
        Act.ASKS_HOW,
        "A how or what question of its own is no answer to an open question.",
        """
        how do|does|can|should i|we|you
        what is|are|does
        whats
        como puedo|se
        comment je|on|puis
        wie kann|bekomme
        como eu|posso
        """,
        examples=("btw how do I get an API token?", "what is a skill?", "wie kann ich das?"),
    ),
    entry(
        Act.ASKS_FOR_IT,
        "Asked to do something (not how it is done): can you, please, an address to act on.",
        """
        can|could|would|will you
        please|bitte|pls|plz
        por favor
        s il te|vous plait
        @EMAIL
        """,
        examples=(
            "can you add maria@example.com as a viewer?",
            "please invite my colleague",
            "could you remove Tom from the workspace?",
        ),
    ),
    entry(
        Act.RECONSIDERS,
        "Coming back to a proposal turned down, to weigh it again before saying yes.",
        """
        on second thought
        thinking about it
        before i|we? decid*
        if we did it|that
        if i|we went|go ahead|with
        pensando bem|melhor
        antes de decidir
        se a? gente? fizer
        pensandolo bien
        si lo hicieramos|hacemos
        a la reflexion
        avant de decider
        si on le faisait
        wenn wir es machen wurden
        bevor ich mich entscheide
        ripensandoci
        prima di decidere
        """,
        examples=(
            "before deciding: if we did it, who would get the report?",
            "pensando melhor, se fizer, quem recebe?",
            "on second thought, what would it send?",
        ),
    ),
    entry(
        Act.TAKES_UP,
        "Taking up a proposal turned down earlier in the conversation.",
        """
        after all
        on second thought
        changed my mind
        lets do it|that
        lets do the|that agent
        the agent|one you suggested|proposed|offered
        go with your|that idea|suggestion
        mach das|es doch
        machen wir das|es doch
        doch machen|einrichten
        den du vorgeschlagen hast
        al final si|hazlo|dale
        al final lo quiero
        pensandolo mejor
        lo que me? propusiste|sugeriste
        finalement oui|vas-y|fais
        finalement d accord
        tout compte fait
        ce que tu as|m propose
        pensando bem
        afinal sim|pode
        o que voce sugeriu|propos
        """,
        examples=(
            "ok you know what, let's do that agent after all",
            "I changed my mind, go with your idea",
            "al final sí, hazlo",
        ),
    ),
    entry(
        Act.ASKS_ABOUT_SETUP,
        "A question about the agent being set up is answered from what was gathered.",
        """
        ^ what does|will it watch|do|look|check|send
        ^ where does|will it send|post|go
        ^ when does|will it run
        ^ how often does|will it run
        ^ what have we got so far
        ^ a? que hora corre|se|sale
        ^ cuando corre|se
        ^ a quelle heure il? tourne|part
        ^ wann lauft
        ^ que|quando horas? ele? roda
        """,
        examples=("what does it watch?", "so when will it run?", "wann läuft er?"),
    ),
    entry(
        Act.VAGUE,
        "A request that names no action (deal with, handle) is asked about, not guessed.",
        """
        ^ please? can|could? you? do something about|with
        ^ please? can|could? you? deal with
        ^ please? can|could? you? handle
        ^ please? can|could? you? take care of
        ^ please? can|could? you? sort|look|fix out|into|up
        ^ haz algo con
        ^ fais quelque chose
        ^ mach was|etwas mit
        ^ faz alguma coisa
        """,
        unless="by|with|and running|creating|changing|pausing",
        examples=(
            "do something about the hubspot leads",
            "handle the refunds",
            "can you deal with the Zendesk backlog",
        ),
    ),
    entry(
        Act.CHANGES_IT,
        "A change asked of the agent just talked about, with where or when in the same breath.",
        f"""
        move|change|switch|reschedule|push|shift|set {_IT} …3 to|at|in|into
        send|post {_IT} …3 to|in|into …20 instead|rather
        send|post {_IT} …3 to|in|into …20 from now on
        send|post {_IT} …3 to|in|into …20 going forward
        send|post {_IT} …3 to|in|into …20 every|each time
        """,
        examples=(
            "Could you please move it to 16:00?",
            "send its results to talent@example.com instead",
            "switch it to Mondays at 9",
        ),
    ),
)
