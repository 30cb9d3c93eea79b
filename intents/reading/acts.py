"""What a message does in the dialogue, as named cues: one table, read once per message.

Each entry names an act, says in one line why the assistant needs it, lists the cues that
show it (``cues.py`` says how they are written) and cues that rule it out, and gives example
messages. ``tests/intents/test_reading.py`` reads every example and checks that it shows its
act, so an entry cannot drift from what it claims. Which act matters when is the assistant's
business; this table only says what a message shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from intents.reading.cues import Cue, cue


class Act(StrEnum):
    ASKS_FOR_AGENT = "asks_for_agent"
    UNDO = "undo"
    INSISTS = "insists"
    NO_NEED = "no_need"
    ASKS_HOW = "asks_how"
    ASKS_FOR_IT = "asks_for_it"
    RECONSIDERS = "reconsiders"
    TAKES_UP = "takes_up"
    ASKS_ABOUT_SETUP = "asks_about_setup"
    VAGUE = "vague"
    CHANGES_IT = "changes_it"
    OPENS_WITH_QUESTION = "opens_with_question"
    THE_PROPOSAL = "the_proposal"
    AGAIN = "again"
    ABOUT_IT = "about_it"
    OPENS_WITH_YES = "opens_with_yes"
    SMALL_TALK = "small_talk"
    STOPS = "stops"
    OPENS_WITH_NO = "opens_with_no"
    SAME_AGAIN = "same_again"
    POINTS_AT_IT = "points_at_it"
    THE_OTHER_ONE = "the_other_one"
    GREETING = "greeting"
    THANKS = "thanks"
    RENAMES_TO = "renames_to"
    BACK_TO_TASK = "back_to_task"
    GIVES_NAME = "gives_name"
    NOTHING_MORE = "nothing_more"
    DELETES_ALL = "deletes_all"
    PICKS_UP = "picks_up"
    ASKS_FOR_SKILLS = "asks_for_skills"
    ASKS_HOW_MANY_AGENTS = "asks_how_many_agents"
    WAIVES_CONFIRMATION = "waives_confirmation"
    ASKS_TO_DELETE = "asks_to_delete"
    ASKS_WHICH_PAUSED = "asks_which_paused"
    ASKS_WHEN_IT_RUNS = "asks_when_it_runs"
    ASKS_WHERE_IT_SENDS = "asks_where_it_sends"


@dataclass(frozen=True)
class Entry:
    act: StrEnum  # an Act here, a Topic in topics.py
    reason: str
    cues: tuple[Cue, ...]
    unless: tuple[Cue, ...] = ()
    examples: tuple[str, ...] = ()


def entry(
    act: StrEnum, reason: str, cues: str, *, unless: str = "", examples: tuple[str, ...] = ()
) -> Entry:
    """An entry; ``cues`` and ``unless`` hold one cue a line."""
    return Entry(
        act,
        reason,
        tuple(cue(line) for line in cues.strip().splitlines()),
        tuple(cue(line) for line in unless.strip().splitlines() if line.strip()),
        examples,
    )


_CREATE = "@V_CREATE|@V_MAKE|@V_CONFIGURE|@WISH|@ADJ_NEW|want|need|like|love|quero|queria"
_WISH = "gostaria|quiero|quisiera|necesito|preciso|brauche|veux|voudrais|aimerais|vorrei|voglio"
_IT = "it|its|that|them|their"
_YES = "=ok|okay|yes|yeah|yep|yup|sure|si|sim|claro|vale|dale|oui|ja|beleza"
_HELLO = (
    "=hi|hello|hey|hiya|howdy|yo|greetings|hola|buenas|bonjour|bonsoir|salut|hallo|servus|moin"
    "|ola|oi"
)
_FINE = "=ok|okay|great|cool|perfect|awesome|nice|super|genial|parfait|prima|otimo"

TABLE: tuple[Entry, ...] = (
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
    entry(
        Act.OPENS_WITH_QUESTION,
        "A message that opens with a question word asks; it does not ask for a change.",
        "^ why|what|whats|when|where|how|who|which|did|does|do|is|are|was|were",
        examples=("why did you move it to 9?", "what does it do?", "is it running?"),
    ),
    entry(
        Act.THE_PROPOSAL,
        "Words that point at the proposal the assistant made.",
        "that|the|your idea|thing|agent|suggestion|proposal",
        examples=(
            "ok, go ahead with that thing",
            "yes, that idea is good",
            "let's build your suggestion",
        ),
    ),
    entry(
        Act.AGAIN,
        "The same thing once more, for another item: do, run, too, also, as well, again.",
        """
        do|run|too|also|same|again|now|next
        as well
        """,
        examples=("now do the third one too", "run the second one as well", "the same again"),
    ),
    entry(
        Act.ABOUT_IT,
        "A word that points at the agent just talked about (it, its, son, sein, su, seu).",
        "it|its|son|sa|ses|sein|seine|su|sus|seu|sua",
        examples=("what's its schedule now?", "when does it run?", "¿cuál es su horario?"),
    ),
    entry(
        Act.OPENS_WITH_YES,
        "A yes at the start takes up what was proposed, whatever details follow it.",
        f"""
        ^ =ok|okay|yes|yeah|yep|yup|sure|si|sim|claro|vale|dale|oui|ja|jawohl|klar|gerne|certo
        ^ =perfect|perfecto|perfeito|parfait|great|beleza|bora|passt
        ^ =lgtm|correct|genau
        ^ looks good
        ^ go ahead
        ^ =do|create it
        ^ va bene
        ^ alles klar
        ^ d accord
        ^ {_YES} …1 go ahead
        ^ {_YES} …1 do|create it
        ^ {_YES} …1 set it up
        ^ {_YES} …1 go ahead and create|build it
        ^ {_YES} …1 go ahead and set it up
        ^ {_YES} …1 pode criar|fazer|configurar|seguir
        ^ {_YES} …1 hazlo|crealo|vas-y
        ^ {_YES} …1 mach es|das
        """,
        examples=("yes, go ahead and create it", "Beleza, pode criar.", "ok sure, at 9am"),
    ),
    entry(
        Act.SMALL_TALK,
        "How are you and its kin ask after the assistant, not after the workspace.",
        """
        how|hows is|are? you
        how|hows is|are? your day|week|morning
        how|hows is? it going
        whats up
        como estas|vai|va
        ca va
        comment vas-tu|allez-vous
        wie gehts
        wie geht es dir
        """,
        examples=("how are you today?", "hey, how's it going", "¿cómo estás?"),
    ),
    entry(
        Act.STOPS,
        "A message that opens with stop or cancel ends the flow it is in.",
        """
        ^ =cancel|stop|abort|nevermind|cancela|annule|abbrechen
        ^ never mind
        ^ forget it|about
        ^ scrap it|that
        """,
        examples=("cancel", "never mind, forget it", "stop please"),
    ),
    entry(
        Act.OPENS_WITH_NO,
        "A no at the start turns down what was shown; what follows it may correct it.",
        "^ =no|nope|nein|non|wait|change\n^ not yet",
        examples=("no, the output should be CSV", "wait, it takes a URL", "nope"),
    ),
    entry(
        Act.SAME_AGAIN,
        "The agent run last, asked for again.",
        """
        again
        same thing|one|agent? as last time|before
        like last time
        last one i ran
        """,
        examples=("run it again", "same as last time please", "do the last one I ran"),
    ),
    entry(
        Act.POINTS_AT_IT,
        "A pronoun, or a bare \u201cthat one\u201d, for the agent just talked about.",
        """
        =it|its|ihn|lo|la|le|ele|ela
        that|this one|agent
        the agent
        """,
        examples=("pause it", "run that one", "setz ihn wieder fort"),
    ),
    entry(
        Act.THE_OTHER_ONE,
        "Of two agents in view, the one not just used.",
        """
        the other one|agent
        l autre
        el otro
        la otra
        der|die|das|den andere|anderen
        o outro
        a outra
        """,
        examples=("now the other one", "run the other agent too", "y el otro"),
    ),
    entry(
        Act.GREETING,
        "A greeting alone, or with what-can-you-do, is answered with a greeting.",
        f"""
        ^ {_HELLO} there|all|team|everyone|omniforge? $
        ^ good morning|afternoon|evening there|all|team|everyone? $
        ^ buenos dias $
        ^ buenas tardes|noches $
        ^ guten morgen|tag|abend $
        ^ bom dia $
        ^ boa tarde $
        ^ {_HELLO} …3 what else? can|could you …1 do $
        ^ {_HELLO} …3 what do you do $
        ^ {_HELLO} …3 how do|does this|it|you work $
        ^ {_HELLO} …3 capabilit* $
        ^ {_HELLO} …3 que puedes|sabes hacer $
        ^ {_HELLO} …3 que peux-tu faire $
        ^ {_HELLO} …3 was kannst du $
        ^ {_HELLO} …3 o que voce? pode|podes|sabe fazer $
        """,
        examples=("hi!", "Hello there, what can you do?", "buenos días"),
    ),
    entry(
        Act.THANKS,
        "Thanks alone is acknowledged, not read as a request.",
        f"""
        ^ {_FINE}? thanks|thx|ty|cheers|gracias|merci|danke|dankeschon|valeu|grazie $
        ^ {_FINE}? thanks a|so? lot|much $
        ^ {_FINE}? thank you|u so? much? $
        ^ {_FINE}? muchas gracias $
        ^ {_FINE}? merci beaucoup|bien $
        ^ {_FINE}? danke schon|dir|euch $
        ^ {_FINE}? vielen dank $
        ^ {_FINE}? muito? obrigado|obrigada $
        """,
        examples=("thanks!", "ok, thank you so much", "Danke schön"),
    ),
    entry(
        Act.RENAMES_TO,
        "A new name given for something: what follows is the name, as written.",
        """
        rename|renamed|call|name …4 to|as
        renomme*|renombra*|umbenenn*|renomear|rinomina … en|a|zu|in|para|como
        """,
        examples=(
            "rename the workspace to Acme Corp",
            "rename it to payment-failures",
            "call the workspace Northwind as well, rename it as Northwind",
        ),
    ),
    entry(
        Act.BACK_TO_TASK,
        "Back to what was being set up after a detour: a recap, or more details for it.",
        """
        back to it|that|this
        back to the|our|my|that setup|agent|wizard|task|skill|bot
        continue|resume the|with|our? setup|agent|wizard
        lets continue|resume
        where were we
        """,
        examples=(
            "ok, let's get back to the setup",
            "back to the agent: every 30 minutes, UTC is fine",
            "back to it: post them to #ops-alerts",
        ),
    ),
    entry(
        Act.GIVES_NAME,
        "A name given outright: the word after call it, named, called is the name.",
        """
        =call|name it|them|this|that
        =called|named|nombre|llamado|llamalo|nomme|appele|heisst|namens|chamado
        """,
        examples=(
            "call it zapier-prod",
            "revoke the old key named legacy-ci",
            "an agent called Bills Radar",
        ),
    ),
    entry(
        Act.NOTHING_MORE,
        "Nothing more to add: no answer to what was asked, and no detail of anything.",
        """
        thats all
        that is all
        nothing else|more
        no more
        eso es todo
        c est tout
        das wars|ist alles
        e so isso
        """,
        examples=(
            "great, thanks, that's all for now",
            "nothing else, thanks",
            "das ist alles",
        ),
    ),
    entry(
        Act.DELETES_ALL,
        "Deleting all the agents at once waits for a yes to the list of them, never a skill.",
        # delete|wipe …3 all|every (of)? (the)? (my)? agents
        "@V_DELETE|wipe|purge|nuke|erase …3 all|every|each|todos|todas|tous|toutes|alle|allen"
        "|tutti|tutte|cada|ogni of|de|von? the|los|las|les|die|den|os|as|des|gli? my|our|your"
        "|mis|mes|nos|meine|meinen|unsere|unseren|meus|minhas|nossos|miei|nostri|@POSS?"
        " @N_AGENT|agent*|bot|bots|assistant|assistants|automation*|workflow*",
        # Not a no, not the ones of a kind ("all agents that post to #sales"), not their runs
        # or logs; "all agents except notion-reporter" is all of them but that one.
        unless="""
        dont|never|not|nicht|nunca|jamais|nao|ne|kein* …2 @V_DELETE
        =no @V_DELETE
        @N_AGENT|agent*|bot|bots that|which|who|whose|named|called|que|qui|die|welche|che
        @N_AGENT|agent*|bot|bots …1 run|runs|history|log|logs|result*|output*|data|schedule*
        """,
        examples=(
            "please delete all my agents",
            "remove every agent",
            "borra todos mis agentes",
            "supprime tous mes agents",
            "lösche alle meine Agenten",
            "apague todos os meus agentes",
        ),
    ),
    entry(
        Act.PICKS_UP,
        "Carrying on with something left half built (a skill, a setup) picks it back up.",
        """
        finish|continue …4 one|skill|setup|agent|wizard|bot
        finish|continue setting|building
        resume …4 skill|setup|wizard
        back to …3 one|skill|setup|agent|wizard|bot
        pick up …4 one|skill|setup|agent|wizard|bot
        carry on with …4 one|skill|setup|agent|wizard|bot
        """,
        examples=(
            "let's get back to that skill",
            "let's finish that one",
            "ok let's finish setting up that agent",
        ),
    ),
    entry(
        Act.ASKS_FOR_SKILLS,
        "Asking which skills there are gets the list of the workspace's skills.",
        """
        @Q_WHAT|@V_LIST|@V_SHOW …5 =skills
        my =skills
        """,
        unless="@Q_HOW …4 =skills",
        examples=(
            "What skills do I currently have available?",
            "I can't remember what skills we've already built.",
            "show my skills",
            "Welche Skills stehen meinen Agenten zur Verfügung?",
        ),
    ),
    entry(
        Act.ASKS_HOW_MANY_AGENTS,
        "Asking how many agents there are gets the list with its count, not one agent's details.",
        """
        =how =many of? my? =agents
        =cuantos|combien|quantos d? =agentes|agents
        =wie =viele =agenten
        """,
        examples=(
            "how many agents do I have now?",
            "¿cuántos agentes tengo ahora?",
            "Wie viele Agenten habe ich eigentlich?",
        ),
    ),
    entry(
        Act.WAIVES_CONFIRMATION,
        "Saying there is no need to confirm deletes at once, without the yes-or-no question.",
        """
        =no =need to confirm|ask|check
        =dont|don ask|confirm|check
        =do =not ask|confirm|check
        without asking|confirm*
        =no confirmation
        just do|delete it
        sin|sans|sem confirmar|confirmer
        ohne nachfrage|bestatigung
        """,
        examples=(
            "delete the last one, no need to confirm",
            "just delete it then",
            "List, delete the last by ordinal without confirmation, rename the first, count",
        ),
    ),
    entry(
        Act.ASKS_TO_DELETE,
        "Deleting an agent gets the yes-or-no question; taking a part out of one deletes nothing.",
        """
        =delete|remove|bin|trash|scrap
        =get =rid =of
        borra*|elimina*|supprime*|losch*|entfern*|apaga*|exclui*|exclua*
        """,
        unless="""
        =from|aus
        =out =of
        """,
        examples=(
            "Get rid of the jira monitor.",
            "apaga o terceiro",
            "Bitte lösch den financial-analyzer, den brauchen wir nicht mehr.",
        ),
    ),
    entry(
        Act.ASKS_WHICH_PAUSED,
        "Asking which agents are paused gets the paused ones, not one agent's details.",
        """
        =which|what|any|are|list|show|cuales|quel|quels|quelle|quelles|welche|quais … =paused
        =which|what|any|are|list|show|cuales|quel|quels|quelle|quelles|welche|quais … =pausiert
        =which|what|any|are|list|show|cuales|quel|quels|quelle|quelles|welche|quais … =pausados
        =which|what|any|are|list|show|cuales|quel|quels|quelle|quelles|welche|quais … =pausadas
        =which|what|any|are|list|show|cuales|quel|quels|quelle|quelles|welche|quais … =on =hold
        =which|what|any|are|list|show|cuales|quel|quels|quelle|quelles|welche|quais … =en =pause
        """,
        examples=(
            "which of my agents are paused right now?",
            "Quais agentes estão pausados no momento?",
            "list paused agents",
        ),
    ),
    entry(
        Act.ASKS_WHEN_IT_RUNS,
        "Asked when or how often an agent runs, its details open with its schedule.",
        """
        =how =often
        =when =does|will|is
        =what =time
        =which =day
        =schedule|timezone|cuando|quand|wann|quando|fuseau|fuso|zeitzone
        =time =zone
        =cada =cuanto
        =a =que =hora
        =zona =horaria
        =a =quelle =heure|frequence
        =wie =oft
        =um =wie =viel =uhr
        =que =horas
        """,
        examples=(
            "how often does it run?",
            "wann läuft der jetzt genau?",
            "a qué hora se ejecuta?",
        ),
    ),
    entry(
        Act.ASKS_WHERE_IT_SENDS,
        "Asked who gets what an agent finds or where it posts, its details open with that.",
        """
        =who =gets|receives|sees
        =who =will =get
        =who =is =getting
        =where =does|will|is|do
        =which =channel
        =quien =recibe|ve
        =donde|wohin|onde
        =qui =recoit
        =ou =est|va|publie
        =wer =bekommt
        =wo =wird|postet
        =quem =recebe
        """,
        examples=(
            "and where does it post?",
            "Wer bekommt den Bericht eigentlich?",
            "Onde o notion-reporter publica o resumo?",
        ),
    ),
)
