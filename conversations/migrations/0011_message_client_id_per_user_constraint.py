# The constraint comes in a migration of its own: on PostgreSQL, the previous one's UPDATE leaves
# foreign-key trigger events pending until its transaction ends, and an index cannot be created
# on the table before then.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("conversations", "0010_message_author_client_id_per_user"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="message",
            constraint=models.UniqueConstraint(
                condition=models.Q(("client_message_id__isnull", False)),
                fields=("author", "client_message_id"),
                name="message_client_id_per_user",
            ),
        ),
    ]
