"""Acts of naming, picking up and deleting agents, and of asking about them."""

from __future__ import annotations

from intents.reading.acts.entry import Act, Entry, entry

MANAGING: tuple[Entry, ...] = (
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
        Act.ASKS_HOW_IT_WENT,
        "Asked how a run went (whether it worked, why it failed): answered from the run.",
        """
        =did|didnt =it|the|that|this …2 =work|run|finish|fail|succeed|go|happen|break
        =how =did =it|the|that|this …2 =go|run
        =why =did|has|is …3 =fail|failed|failing|break|broke|crash|stop
        =what =happened
        =is =it|the|that … =done|finished|through
        =funciono|salio|geklappt|funktioniert|marche|fonctionne
        """,
        examples=("did it work?", "did it run?", "why did it fail?"),
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
